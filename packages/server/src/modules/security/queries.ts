import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';

export function securityQueries(db: Database) {
  return {
    async setPassword(userId: string, passwordHash: string, now: Date): Promise<void> {
      await db.update(users).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(users.id, userId));
    },
  };
}

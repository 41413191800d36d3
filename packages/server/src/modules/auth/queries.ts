import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { passkeys } from '../../db/schema';

export type TokenPurpose = 'activation' | 'reset_code' | 'reset_link';

export function authQueries(db: Database) {
  return {
    async hasPasskeys(userId: string): Promise<boolean> {
      return (await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1)).length > 0;
    },
  };
}

export type AuthQueries = ReturnType<typeof authQueries>;

import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';

export function accountQueries(db: Database) {
  return {
    async usernameTaken(username: string, exceptUserId: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.username})`, username.toLowerCase()), ne(users.id, exceptUserId)))
        .limit(1);
      return rows.length > 0;
    },

    async updateProfile(
      id: string,
      changes: Partial<Pick<typeof users.$inferInsert, 'fullName' | 'username' | 'language' | 'customerLanguage' | 'phone' | 'company' | 'organization' | 'address' | 'country'>>,
      now: Date,
    ) {
      const [row] = await db.update(users).set({ ...changes, updatedAt: now }).where(eq(users.id, id)).returning();
      return row;
    },
  };
}

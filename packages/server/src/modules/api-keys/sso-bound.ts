import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys } from '../../db/schema';

/**
 * Revokes, in one statement, the personal API keys of each person that were not made on a
 * session their organization's IdP signed in since `since` (when SSO became required of them):
 * a key made on a password session would outlive the sessions the requirement ends, and go on
 * acting for someone the company offboards at its IdP. How many were revoked.
 */
export async function revokeApiKeysUnlessSsoSince(db: Database, people: ReadonlyArray<{ userId: string; since: Date }>, now: Date): Promise<number> {
  if (people.length === 0) return 0;
  const person = sql`unnest(${sql.param(people.map((item) => item.userId))}::uuid[], ${sql.param(people.map((item) => item.since.toISOString()))}::timestamptz[]) as person(user_id, since)`;
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      sql`${apiKeys.revokedAt} is null and exists (select 1 from ${person} where person.user_id = ${apiKeys.userId} and not (${apiKeys.madeOnSso} and ${apiKeys.createdAt} >= person.since))`,
    )
    .returning({ id: apiKeys.id });
  return revoked.length;
}

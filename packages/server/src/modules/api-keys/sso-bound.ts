import { and, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys } from '../../db/schema';
import { heldWithoutSsoSince, type BoundSince } from '../sessions';

/**
 * Revokes, in one statement, the personal API keys of each person that were not made on a
 * session their organization's IdP signed in since they became bound (`heldWithoutSsoSince`):
 * a key made on a password session would outlive the sessions the requirement ends, and go on
 * acting for someone the company offboards at its IdP. The time asked is the session's sign-in,
 * not the key's making: a key made after joining on an SSO session from before (another
 * organization's IdP signed it in) goes, as that session does. How many were revoked.
 */
export async function revokeApiKeysUnlessSsoSince(db: Database, people: readonly BoundSince[], now: Date): Promise<number> {
  if (people.length === 0) return 0;
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(isNull(apiKeys.revokedAt), heldWithoutSsoSince(people, { userId: apiKeys.userId, viaSso: isNotNull(apiKeys.ssoSignedInAt), createdAt: apiKeys.ssoSignedInAt })))
    .returning({ id: apiKeys.id });
  return revoked.length;
}

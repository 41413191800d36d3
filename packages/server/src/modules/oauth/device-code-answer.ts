import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oidcModels } from '../../db/schema';

/** What a person's answer writes on a device code: their approval (who, how, the grant) or their refusal. */
export type DeviceCodeAnswer =
  | { accountId: string; acr: string; amr: string[]; authTime: number; grantId: string; scope: string }
  | { error: 'access_denied'; errorDescription: string };

/** The payload field naming the person whose answer a code is taking (the provider ignores it). */
const ANSWERED_BY = 'portalAnsweredBy';

/**
 * Takes a device code still waiting for an answer for `userId`, in one conditional statement:
 * of two people answering the same code at once (both read it unanswered) exactly one takes
 * it, and a code already taken, answered, used or expired is never taken again. Only the
 * taker then writes the answer (answerDeviceCode), so a loser makes nothing (no grant); the
 * app's polls meanwhile still see it pending.
 */
export async function takeDeviceCode(db: Database, jti: string, userId: string): Promise<boolean> {
  const t = oidcModels;
  const taken = await db
    .update(t)
    .set({ payload: sql`${t.payload} || jsonb_build_object(${ANSWERED_BY}::text, ${userId}::text)` })
    .where(
      and(
        eq(t.model, 'DeviceCode'),
        eq(t.id, jti),
        isNull(t.accountId),
        sql`not (${t.payload} ? 'error')`,
        sql`not (${t.payload} ? ${ANSWERED_BY})`,
        isNull(t.consumedAt),
        or(isNull(t.expiresAt), gt(t.expiresAt, sql`now()`)),
      ),
    )
    .returning({ id: t.id });
  return taken.length > 0;
}

/** Writes the answer of the person who took the code (takeDeviceCode); the app's next poll receives it. */
export async function answerDeviceCode(db: Database, jti: string, userId: string, answer: DeviceCodeAnswer): Promise<void> {
  const t = oidcModels;
  const approval = 'accountId' in answer ? answer : undefined;
  await db
    .update(t)
    .set({
      payload: sql`${t.payload} || ${JSON.stringify(answer)}::jsonb`,
      ...(approval ? { accountId: approval.accountId, grantId: approval.grantId } : {}),
    })
    .where(and(eq(t.model, 'DeviceCode'), eq(t.id, jti), sql`${t.payload} ->> ${ANSWERED_BY} = ${userId}`));
}

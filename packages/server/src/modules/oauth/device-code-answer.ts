import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oidcModels } from '../../db/schema';

/** What a person's answer writes on a device code: their approval (who, how, the grant) or their refusal. */
export type DeviceCodeAnswer =
  | { accountId: string; acr: string; amr: string[]; authTime: number; grantId: string; scope: string }
  | { error: 'access_denied'; errorDescription: string };

/**
 * Writes a person's answer on a device code still waiting for one, in one conditional
 * statement: of two people answering the same code at once (both read it unanswered) exactly
 * one writes, and a code already answered, used or expired is never overwritten. Answers
 * whether this answer was the one written.
 */
export async function answerDeviceCode(db: Database, jti: string, answer: DeviceCodeAnswer): Promise<boolean> {
  const t = oidcModels;
  const approval = 'accountId' in answer ? answer : undefined;
  const written = await db
    .update(t)
    .set({
      payload: sql`${t.payload} || ${JSON.stringify(answer)}::jsonb`,
      ...(approval ? { accountId: approval.accountId, grantId: approval.grantId } : {}),
    })
    .where(
      and(
        eq(t.model, 'DeviceCode'),
        eq(t.id, jti),
        isNull(t.accountId),
        sql`not (${t.payload} ? 'error')`,
        isNull(t.consumedAt),
        or(isNull(t.expiresAt), gt(t.expiresAt, sql`now()`)),
      ),
    )
    .returning({ id: t.id });
  return written.length > 0;
}

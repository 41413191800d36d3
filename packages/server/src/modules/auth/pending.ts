import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { createOneTimeTokens } from '../../platform/one-time-tokens';

/**
 * What a sign-in leaves pending between its steps, and the mailed ways in: pending second
 * steps (mfa_token), their mailed codes, email sign-in codes, deletion restore tokens, and
 * reset codes and links. A password reset or change ends them all: whoever started one of
 * them with the old password (or a mailbox since taken back) cannot finish it.
 */
const PENDING_PURPOSES = ['mfa_challenge', 'mfa_email', 'login_code', 'restore', 'reset_code', 'reset_link'] as const;

export async function endPendingSignIns(deps: { db: Database; clock: Clock }, userId: string): Promise<void> {
  const tokens = createOneTimeTokens<(typeof PENDING_PURPOSES)[number]>(deps);
  for (const purpose of PENDING_PURPOSES) await tokens.retire(userId, purpose);
}

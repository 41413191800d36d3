import { randomUUID } from 'node:crypto';
import { ACCOUNT_DELETION_WINDOW_DAYS, DELETION_CONFIRMATION_WORD } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import { notifySecurityEvent, recordNewDeviceSignIn } from '../notifications/service';
import type { UserRow } from '../users';
import { accountQueries } from './queries';
import type { AccountDependencies, AccountService, FactorProof } from './service';

/** A restore token (handed out by a sign-in during the deletion window) lives 15 minutes. */
export const RESTORE_TOKEN_TTL_SECONDS = 15 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day a deletion is due, as mails and the error message show it. */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The sign-in gate of accounts scheduled for deletion. Call it once every factor of a sign-in
 * has passed, just before the session is created. Within the window it throws 403
 * account.deletion_pending with details {deletion_due_at, restore_token} (a single-use token,
 * 15 minutes, for POST /sso/auth/restore); once the window has passed, or after the purge, the
 * account no longer signs in (auth.invalid_credentials). Returns quietly for everyone else.
 */
export async function deletionGate(deps: { db: Database; clock: Clock }, user: UserRow, origin?: RequestOrigin): Promise<void> {
  if (user.purgedAt) throw new AppError('auth.invalid_credentials');
  if (!user.deletionRequestedAt || !user.deletionDueAt) return;
  const now = deps.clock.now();
  if (user.deletionDueAt.getTime() <= now.getTime()) throw new AppError('auth.invalid_credentials');
  const queries = accountQueries(deps.db);
  const token = randomToken();
  await queries.retireTokens(user.id, 'restore', now);
  await queries.insertToken({
    id: randomUUID(),
    userId: user.id,
    purpose: 'restore',
    tokenHash: sha256(token),
    payload: origin ? { ip: origin.ip, device_id: origin.deviceId } : null,
    expiresAt: new Date(now.getTime() + RESTORE_TOKEN_TTL_SECONDS * 1000),
  });
  throw new AppError(
    'account.deletion_pending',
    { date: dayOf(user.deletionDueAt) },
    { deletion_due_at: user.deletionDueAt.toISOString(), date: dayOf(user.deletionDueAt), restore_token: token },
  );
}

export type DeletionService = ReturnType<typeof createDeletionService>;

/** Requesting, and cancelling, the deletion of one's account (spec: cancellable within 14 days). */
export function createDeletionService(deps: AccountDependencies & { account: AccountService }) {
  const { clock, sessions, account } = deps;
  const queries = accountQueries(deps.db);

  return {
    deletionGate: (user: UserRow, origin?: RequestOrigin) => deletionGate(deps, user, origin),

    /** Schedules the purge 14 days out, signs out every session and tells the owner. */
    async request(user: UserRow, input: { password: string; confirmation: string } & FactorProof, origin: RequestOrigin): Promise<{ deletion_due_at: string }> {
      if (input.confirmation !== DELETION_CONFIRMATION_WORD) {
        throw new AppError('account.confirmation_mismatch', { word: DELETION_CONFIRMATION_WORD }, { fields: { confirmation: `Type ${DELETION_CONFIRMATION_WORD} to confirm` } });
      }
      await account.confirmIdentity(user, input);
      const now = clock.now();
      const due = new Date(now.getTime() + ACCOUNT_DELETION_WINDOW_DAYS * DAY_MS);
      const scheduled = await queries.scheduleDeletion(user.id, now, due);
      if (!scheduled) throw new AppError('unauthorized');
      await sessions.revokeAll(user.id);
      await notifySecurityEvent(deps, user.id, 'deletion_requested', { brand: origin.brand, detail: dayOf(due) });
      return { deletion_due_at: due.toISOString() };
    },

    /** Cancels a scheduled deletion with the restore token of a sign-in, and signs in. */
    async restore(restoreToken: string, origin: RequestOrigin) {
      const claimed = await queries.claimToken('restore', sha256(restoreToken), clock.now());
      const restored = claimed ? await queries.cancelDeletion(claimed.userId, clock.now()) : undefined;
      if (!restored) throw new AppError('auth.mfa_token_invalid');
      const { token, session, history } = await sessions.create(restored.id, origin);
      await notifySecurityEvent(deps, restored.id, 'deletion_cancelled', { brand: origin.brand });
      await recordNewDeviceSignIn(deps, restored, session, history, origin);
      return { token, user: restored };
    },
  };
}

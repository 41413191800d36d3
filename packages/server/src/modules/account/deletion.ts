import { ACCOUNT_DELETION_WINDOW_DAYS, DELETION_CONFIRMATION_WORD } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { createOneTimeTokens } from '../../platform/one-time-tokens';
import { AppError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import { notifySecurityEvent } from '../notifications';
import type { SignedIn } from '../sessions';
import { createUserService, type UserRow } from '../users';
import { accountQueries, type AccountTokenPurpose } from './queries';
import type { AccountDependencies, AccountService, FactorProof } from './service';

/** A restore token (handed out by a sign-in during the deletion window) lives 15 minutes. */
export const RESTORE_TOKEN_TTL_SECONDS = 15 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day a deletion is due, as mails and the error message show it. */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The deletion step of the sign-in pipeline (auth), once every factor of a sign-in has
 * passed, just before the session is created. Within the window it throws 403
 * account.deletion_pending with details {deletion_due_at, restore_token} (a single-use token,
 * 15 minutes, for POST /sso/auth/restore, carrying how the person authenticated); once the
 * window has passed, or after the purge, the account no longer signs in
 * (auth.invalid_credentials). Returns quietly for everyone else.
 */
export async function deletionGate(deps: { db: Database; clock: Clock }, user: UserRow, origin?: RequestOrigin, amr: readonly string[] = []): Promise<void> {
  if (user.purgedAt) throw new AppError('auth.invalid_credentials');
  if (!user.deletionRequestedAt || !user.deletionDueAt) return;
  const now = deps.clock.now();
  if (user.deletionDueAt.getTime() <= now.getTime()) throw new AppError('auth.invalid_credentials');
  const payload = { ...(origin ? { ip: origin.ip, device_id: origin.deviceId } : {}), amr };
  const token = await createOneTimeTokens<AccountTokenPurpose>(deps).issueLink(user.id, 'restore', RESTORE_TOKEN_TTL_SECONDS, { payload });
  throw new AppError(
    'account.deletion_pending',
    { date: dayOf(user.deletionDueAt) },
    { deletion_due_at: user.deletionDueAt.toISOString(), date: dayOf(user.deletionDueAt), restore_token: token },
  );
}

/**
 * Uses up a restore token: the account it was issued for, while its deletion is still
 * scheduled and not due, and how the sign-in that met the gate authenticated. Undefined when
 * the token is not live or the window has closed meanwhile. It cancels nothing: the restore
 * still meets the sign-in's later checks (company SSO, the lock), and only one that ends in a
 * session cancels the deletion (`cancelScheduledDeletion`, in the session's transaction).
 */
export async function claimRestoreToken(deps: { db: Database; clock: Clock }, restoreToken: string): Promise<{ user: UserRow; amr: string[] } | undefined> {
  const claimed = await createOneTimeTokens<AccountTokenPurpose>(deps).claimLink('restore', restoreToken);
  const user = claimed ? await createUserService(deps.db).findById(claimed.userId) : undefined;
  if (!claimed || !user || user.purgedAt || !user.deletionDueAt || user.deletionDueAt.getTime() <= deps.clock.now().getTime()) return undefined;
  const amr = Array.isArray(claimed.payload?.amr) ? claimed.payload.amr.filter((value): value is string => typeof value === 'string') : [];
  return { user, amr };
}

/** Cancels the account's scheduled deletion in one statement: the restored account, or undefined when it is due (or none is scheduled). */
export const cancelScheduledDeletion = (deps: { db: Database; clock: Clock }, userId: string): Promise<UserRow | undefined> =>
  accountQueries(deps.db).cancelDeletion(userId, deps.clock.now());

export type DeletionService = ReturnType<typeof createDeletionService>;

/** Requesting, and cancelling, the deletion of one's account (spec: cancellable within 14 days). */
export function createDeletionService(deps: AccountDependencies & { account: AccountService; restoreSignIn: (restoreToken: string, origin: RequestOrigin) => Promise<SignedIn> }) {
  const { clock, sessions, account } = deps;
  const queries = accountQueries(deps.db);

  /** Schedules the purge 14 days out, signs out every session and tells the owner; undefined when scheduled already. */
  async function schedule(user: UserRow, origin: RequestOrigin): Promise<Date | undefined> {
    const now = clock.now();
    const due = new Date(now.getTime() + ACCOUNT_DELETION_WINDOW_DAYS * DAY_MS);
    if (!(await queries.scheduleDeletion(user.id, now, due))) return undefined;
    await sessions.revokeAll(user.id);
    await notifySecurityEvent(deps, user.id, 'deletion_requested', { brand: origin.brand, detail: dayOf(due) });
    return due;
  }

  return {
    /** Schedules the purge 14 days out, signs out every session and tells the owner. */
    async request(user: UserRow, input: { password: string; confirmation: string } & FactorProof, origin: RequestOrigin): Promise<{ deletion_due_at: string }> {
      if (input.confirmation !== DELETION_CONFIRMATION_WORD) {
        throw new AppError('account.confirmation_mismatch', { word: DELETION_CONFIRMATION_WORD }, { fields: { confirmation: `Type ${DELETION_CONFIRMATION_WORD} to confirm` } });
      }
      await account.confirmIdentity(user, input);
      const due = await schedule(user, origin);
      if (!due) throw new AppError('unauthorized');
      return { deletion_due_at: due.toISOString() };
    },

    /**
     * An operator starts the deletion (the console, with a reason in the operator audit log):
     * the same window, sign-out and mail as the owner's own request. False when one was scheduled.
     */
    scheduleByOperator: async (user: UserRow, origin: RequestOrigin): Promise<boolean> => (await schedule(user, origin)) !== undefined,

    /** Cancels a scheduled deletion with the restore token of a sign-in, and signs in: the sign-in pipeline's restore way in. */
    restore: (restoreToken: string, origin: RequestOrigin): Promise<SignedIn> => deps.restoreSignIn(restoreToken, origin),
  };
}

import type { MfaChallengeResponse } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import type { RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { inOneTransaction } from '../../db/scoped-transaction';
import { cancelScheduledDeletion, deletionGate } from '../account';
import { recordMemberEvent } from '../audit';
import type { SecondFactorService } from '../mfa';
import type { SecurityAlert } from '../notifications';
import type { AuthMethod, SessionAlerts, SessionHistory, SessionRow, SessionService, SignedIn, SignInResult } from '../sessions';
import type { UserRow } from '../users';
import { addressLockedByFailure } from './address-budget';

/**
 * One way in (password, email code, passkey, second step, restore; later social and company
 * sign-in): the first three steps of the pipeline, which only it knows how to take.
 */
export interface WayIn<Input> {
  /** Step 1. Who is signing in; undefined when nobody matches (verify still runs, so both cost the same). */
  identify(input: Input, origin: RequestOrigin): Promise<UserRow | undefined>;
  /** Step 2. Refuses an account (or an account from this address) that is locked out, before its factor is checked. */
  lockout?(user: UserRow | undefined, input: Input, origin: RequestOrigin): Promise<void>;
  /** Step 3. Checks the factor and counts a failure: throws, or answers what it proved. */
  verify(user: UserRow | undefined, input: Input, origin: RequestOrigin): Promise<Proven>;
  /** How the audit log names a failure of this way in (a success is named by its `amr`). */
  method?: SignInMethod;
  /** The email typed, for a failure when identify found no account: an organization's member without one is still audited. */
  claimedEmail?(input: Input): string | undefined;
}

/** The person's organization as a sign-in needs it (modules/company-sso answers it): which one, for its audit log, and whether only its IdP may sign them in. */
export interface SignInMembership {
  organizationId: string;
  ssoRequired: boolean;
}

/** How a sign-in went, as an organization's audit log says it. */
export type SignInMethod = 'password' | 'email_code' | 'second_step' | 'passkey' | 'social' | 'sso' | 'restore';

/** The first factor of a signed-in session, by its amr. */
function methodOf(amr: AuthMethod[]): SignInMethod {
  if (amr.includes('sso')) return 'sso';
  if (amr.includes('social')) return 'social';
  if (amr.includes('hwk')) return 'passkey';
  if (amr.includes('pwd')) return 'password';
  return 'email_code';
}

/**
 * A refusal of the factor itself (a wrong password, a wrong or expired code): what the audit
 * log calls a failed sign-in. Limits (429), an unactivated account and server errors are not.
 */
const factorRefused = (error: unknown): error is AppError => error instanceof AppError && (error.status === 400 || error.status === 401) && error.code !== 'auth.not_activated';

/** What a way in proved: who, by which factors, and where the shared steps take over. */
export interface Proven {
  user: UserRow;
  amr: AuthMethod[];
  /** The first shared step to run; a second step or a restore comes back past the ones it already passed. */
  from?: StepName;
  /** Security events this way in means for the owner (a restore cancels a deletion). */
  events?: SecurityAlert[];
  /** A restore: the account's scheduled deletion is cancelled with its session, once every step passed. */
  restoresDeletion?: boolean;
}

/** A sign-in between its way in and its answer; each step reads it and adds to it. */
interface SignInAttempt {
  user: UserRow;
  origin: RequestOrigin;
  amr: AuthMethod[];
  authTime: Date;
  events: SecurityAlert[];
  session?: { token: string; row: SessionRow; history: SessionHistory };
  /** The person's organization, once the company SSO step asked (null: none); the audit step reuses it. */
  membership?: SignInMembership | null;
  restoresDeletion: boolean;
}

/** A shared step: returns nothing to go on, an answer to stop the sign-in there, or throws. */
type Step = (attempt: SignInAttempt) => Promise<MfaChallengeResponse | void>;

export interface SignInDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionService;
  secondFactor: Pick<SecondFactorService, 'challenge'>;
  log: { error(object: unknown, message: string): void };
  /**
   * The account's organization and whether it requires company SSO (modules/company-sso, bound
   * in app.ts): only its IdP then signs the member in. One lookup serves that step and the audit log.
   */
  membershipOf?: (user: UserRow) => Promise<SignInMembership | undefined>;
  /**
   * The security alert worker (modules/notifications, made in app.ts): kicked once a session
   * and its alerts are committed, so they are delivered right after the answer on this node.
   * Without it they wait for a node's periodic run.
   */
  securityAlerts?: { kick(): void };
  /** The operators' dashboard counters (modules/admin-dashboard, bound in app.ts): never throws. */
  countEvent?: (event: 'sign_in' | 'sign_in_failed' | 'lockout') => Promise<void>;
  /** The sign-in limits: what tells the dashboard an address's failures locked it out. */
  limiter?: RateLimiter;
}

export type SignInPipeline = ReturnType<typeof createSignInPipeline>;

/** More than one factor: what skips the second step (a user-verified passkey) and what an ID token calls mfa. */
export const withMfa = (amr: AuthMethod[]): AuthMethod[] => (amr.includes('mfa') ? amr : [...amr, 'mfa']);

/**
 * The one sign-in pipeline. Every way in takes its own first steps (identify, lockout, verify
 * the factor) and then the shared ones, in this order:
 *
 *   4 activated      an account whose mailbox nobody proved does not sign in
 *     company SSO    a member of an organization that requires SSO does not sign in with a
 *                    password or an email code (its first factor), only through its IdP
 *   5 second step    two-step verification on and one factor proved: answer the mfa challenge
 *                    (the second step comes back at company SSO, which reads the membership
 *                    afresh, and passes here with both factors)
 *   6 deletion       an account scheduled for deletion stops with a restore token
 *                    (the restore way in comes back at company SSO too, and passes here; its
 *                    session cancels the deletion, so a refused restore cancels nothing)
 *     [link]         social or company sign-in: link the outside identity to the account here
 *   7 session        a new session (a restore's in one transaction with cancelling the
 *                    deletion), and in its statement the security alerts it means for the
 *                    owner (a device never seen before; a restore's, a link's): queued, then
 *                    delivered after the answer (a notification and a mail each) by the
 *                    security alert worker, so a crash keeps both or neither
 *   8 audit          the organization's audit log (when the person is in one) records the sign-in
 *     [interaction]  the OIDC provider finishes its login interaction here, with the session,
 *                    `amr` and `auth_time` the result carries
 *
 * A new way in is a WayIn, and a new concern is a step in `steps`: never a copy of the end.
 */
export function createSignInPipeline(deps: SignInDependencies) {
  const { clock, sessions, secondFactor } = deps;

  const steps: Array<[StepName, Step]> = [
    [
      'activated',
      async ({ user }) => {
        if (!user.activatedAt) throw new AppError('auth.not_activated');
        // After the factor was proved: the refusal tells nothing to who does not hold it.
        if (user.lockedAt) throw new AppError('auth.account_locked');
      },
    ],
    [
      'company sso',
      async (attempt) => {
        if (!deps.membershipOf) return;
        const membership = (attempt.membership = (await deps.membershipOf(attempt.user)) ?? null);
        // Only the organization's IdP signs its members in: a password, a mailed code, a passkey
        // or a social account would outlive their removal at the IdP.
        if (membership?.ssoRequired && !attempt.amr.includes('sso')) throw new AppError('sso.required', {}, { sso_url: '/login/sso' });
      },
    ],
    [
      'second step',
      async ({ user, origin, amr }) => {
        // Fail closed: an account with a second factor never gets a session on one factor.
        if (user.twoFactorMethod && !amr.includes('mfa')) return secondFactor.challenge(user, origin, amr);
      },
    ],
    [
      'deletion',
      // A restore passes with its deletion still scheduled: the session step cancels it.
      async ({ user, origin, amr, restoresDeletion }) => (restoresDeletion ? undefined : deletionGate(deps, user, origin, amr)),
    ],
    [
      'session',
      async (attempt) => {
        // Ways in that come back past the first steps (the second step, a restore) meet it here.
        if (attempt.user.lockedAt) throw new AppError('auth.account_locked');
        // The alerts go in the session's own statement: a crash keeps both or neither.
        const alerts = (session: SessionRow): SessionAlerts => ({
          brand: attempt.origin.brand,
          mailTo: attempt.user.email,
          always: attempt.events,
          ifNewDevice: { kind: NEW_DEVICE, detail: deviceDetail(session) },
        });
        const create = () => sessions.create(attempt.user.id, attempt.origin, attempt.amr, alerts);
        // A restore cancels the deletion only with its session, after every check: both commit, or neither.
        const restoring = async () => {
          const restored = await cancelScheduledDeletion(deps, attempt.user.id);
          // Due meanwhile, or cancelled by another restore: the token restores nothing.
          if (!restored) throw new AppError('auth.mfa_token_invalid');
          attempt.user = restored;
          return create();
        };
        const { token, session, history } = attempt.restoresDeletion ? await inOneTransaction(deps.db, restoring) : await create();
        attempt.session = { token, row: session, history };
        if (isNewDevice(session, history)) attempt.events.push({ kind: NEW_DEVICE, detail: deviceDetail(session) });
        if (attempt.events.length > 0) deps.securityAlerts?.kick();
      },
    ],
    [
      'audit',
      async ({ user, origin, amr, membership }) => {
        await recordMemberEvent(deps, user, 'sign_in', origin, { method: methodOf(amr), mfa: amr.includes('mfa') }, membership);
      },
    ],
  ];

  /** Runs the shared steps from `from` on; a session, or the answer of the step that stopped it. */
  async function finish(proven: Proven, origin: RequestOrigin): Promise<SignInResult> {
    const attempt: SignInAttempt = { user: proven.user, origin, amr: proven.amr, authTime: clock.now(), events: [...(proven.events ?? [])], restoresDeletion: proven.restoresDeletion === true };
    const start = proven.from ? steps.findIndex(([name]) => name === proven.from) : 0;
    for (const [, step] of steps.slice(start)) {
      const answer = await step(attempt);
      if (answer) return answer;
    }
    return { token: attempt.session!.token, user: attempt.user, amr: attempt.amr, authTime: attempt.authTime };
  }

  /** Signs in one way: its identify, lockout and verify steps, then the shared ones. */
  async function run<Input>(way: WayIn<Input>, input: Input, origin: RequestOrigin): Promise<SignInResult> {
    const user = await way.identify(input, origin);
    // A refusal by a lock is no lockout: the failure that made the lock was counted (below, and
    // in the password way for an account), so a locked account tried a hundred times counts once.
    await way.lockout?.(user, input, origin);
    let proven: Proven;
    try {
      proven = await way.verify(user, input, origin);
    } catch (error) {
      // The organization audit log: the same one lookup whether or not an account exists (the
      // email typed stands in for it), and the same answer; recording never throws.
      const email = user?.email ?? way.claimedEmail?.(input)?.trim();
      if (factorRefused(error)) await deps.countEvent?.('sign_in_failed');
      if (factorRefused(error) && deps.limiter && (await addressLockedByFailure(deps.limiter, origin))) await deps.countEvent?.('lockout');
      if (factorRefused(error) && email?.includes('@')) {
        await recordMemberEvent(deps, { id: user?.id, email }, 'sign_in_failed', origin, { method: way.method ?? null, reason: error.code });
      }
      throw error;
    }
    const result = await finish(proven, origin);
    if (!('mfa_required' in result)) await deps.countEvent?.('sign_in');
    return result;
  }

  /** For ways in that come back past the second step: they always end in a session. */
  async function runToSession<Input>(way: WayIn<Input>, input: Input, origin: RequestOrigin): Promise<SignedIn> {
    const result = await run(way, input, origin);
    if ('mfa_required' in result) throw new Error('a way in past the second step answered a second step');
    return result;
  }

  return { run, runToSession };
}

export type StepName = 'activated' | 'company sso' | 'second step' | 'deletion' | 'session' | 'audit';

const NEW_DEVICE = 'new_device_sign_in';

/** What the new-device alert says of the device: its browser, system, country and address. */
const deviceDetail = (row: SessionRow) => [row.browser, row.device, row.location, row.ip].filter(Boolean).join(' · ');

/**
 * A sign-in from a device id never seen for the account: the first sign-in of an account alerts
 * nobody, and a device id seen before is no news. The session's statement writes the alert by
 * the same rule (sessions/queries.ts); this tells the sign-in that it did.
 */
const isNewDevice = (row: SessionRow, history: SessionHistory) => Boolean(row.deviceId) && !history.deviceSeen && history.hadSessions;

import type { Mailer } from '../../platform/mail';
import { accountInventory, notifySecurityEvent } from '../notifications';
import { paths, type SessionInfo } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import { hashPassword, isCommonPassword, verifyPassword } from '../../platform/passwords';
import { passwordChangedMail } from '../auth';
import type { MfaService, SecondFactorService } from '../mfa';
import { createUserService, replyLanguage } from '../users';
import type { PasskeyService } from '../passkeys';
import { sessionDeviceDto, type Authentication, type SessionRow, type SessionService } from '../sessions';
import { endPendingSignIns } from '../auth';

/** How many sessions the overview page lists. */
const RECENT_SESSIONS = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SecurityDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: { error(object: unknown, message: string): void };
  sessions: SessionService;
  secondFactor: SecondFactorService;
  mfa: MfaService;
  passkeys: PasskeyService;
}

export type SecurityService = ReturnType<typeof createSecurityService>;

function toSessionDto(row: SessionRow, currentId: string): SessionInfo {
  return { ...sessionDeviceDto(row), current: row.id === currentId };
}

/** The security pages: overview, password change, and the sessions (device activity) list. */
export function createSecurityService(deps: SecurityDependencies) {
  const { config, clock, sessions, secondFactor } = deps;
  const users = createUserService(deps.db);

  async function listSessions({ user, session }: Authentication): Promise<SessionInfo[]> {
    return (await sessions.list(user.id)).map((row) => toSessionDto(row, session.id));
  }

  return {
    listSessions,

    async overview(caller: Authentication) {
      const { user } = caller;
      const [twoFactor, passkeys, recent] = [await deps.mfa.status(user), await deps.passkeys.count(user.id), await listSessions(caller)];
      return {
        has_password: user.passwordHash !== null,
        password_changed_at: user.passwordChangedAt?.toISOString() ?? null,
        two_factor: twoFactor,
        passkeys,
        recent_sessions: recent.slice(0, RECENT_SESSIONS),
      };
    },

    /** Revokes one of the caller's sessions; the token is refused from its next request on. */
    async revokeSession(userId: string, sessionId: string): Promise<void> {
      if (!UUID.test(sessionId) || !(await sessions.revoke(userId, sessionId))) throw new AppError('auth.session_not_found');
    },

    async revokeOthers({ user, session }: Authentication): Promise<{ revoked: number }> {
      return { revoked: await sessions.revokeAll(user.id, session.id) };
    },

    /**
     * Re-authentication before a sensitive change (declarations with `recentAuth`): the
     * password, a current second-step code (or a recovery code), or an assertion of one of
     * the account's passkeys (user-verified), each throttled like at
     * sign-in; the session then counts as freshly proved for REAUTH_MAX_AGE_SECONDS.
     */
    async reauthenticate(
      { user, session }: Authentication,
      proof: { password?: string; code?: string; recovery_code?: string; passkey?: Record<string, unknown> },
      origin: RequestOrigin,
    ): Promise<void> {
      if (proof.passkey !== undefined) await deps.passkeys.confirm(user, proof.passkey, origin);
      else if (proof.password !== undefined) await secondFactor.confirmPassword(user, proof.password);
      else {
        if (!user.twoFactorMethod) throw new AppError('auth.two_factor_not_enabled');
        await secondFactor.requireFactor(user, { code: proof.code, recovery_code: proof.recovery_code }, 'two_factor_email');
      }
      // Anything but the password proves the second step (a passkey proves both).
      await sessions.prove(session.id, proof.password === undefined);
    },

    /**
     * Changes the password (the current one required when the account has one) or sets the
     * first one of a passkey-only account. Every other session is signed out; the owner is mailed.
     */
    /** Request options for re-authenticating with one of the account's passkeys. */
    reauthPasskeyOptions: ({ user }: Authentication, origin: RequestOrigin) => deps.passkeys.reauthOptions(user, origin),

    async changePassword(caller: Authentication, input: { current_password?: string; new_password: string }, origin: RequestOrigin): Promise<void> {
      const { user, session } = caller;
      if (user.passwordHash) {
        if (!input.current_password) {
          throw new AppError('auth.current_password_required', {}, { fields: { current_password: 'Enter your current password' } });
        }
        await secondFactor.confirmPassword(user, input.current_password, 'current_password');
        if (await verifyPassword(user.passwordHash, input.new_password)) {
          throw new AppError('auth.password_same_as_old', {}, { fields: { new_password: 'Choose a new password different from the old one' } });
        }
      }
      // A first password (a passkey-only account) is a new way in: it needs a recent proof.
      else if (!(await sessions.provedWithin(session, config.REAUTH_MAX_AGE_SECONDS))) throw new AppError('auth.reauth_required');
      if (isCommonPassword(input.new_password)) {
        throw new AppError('auth.password_too_common', {}, { fields: { new_password: 'Choose a less common password' } });
      }
      await users.setPasswordHash(user.id, await hashPassword(input.new_password), clock.now(), true);
      await sessions.revokeAll(user.id, session.id);
      await endPendingSignIns(deps, user.id);
      const base = originFor(config, origin.brand);
      const lang = replyLanguage(user, origin);
      const inventory = await accountInventory(deps, user.id, lang, base);
      secondFactor.mailLater(user.email, passwordChangedMail({ lang, brand: origin.brand, name: user.fullName, resetLink: `${base}${paths.forgot}`, inventory }));
      void notifySecurityEvent(deps, user.id, 'password_changed', { brand: origin.brand, mail: false });
    },
  };
}

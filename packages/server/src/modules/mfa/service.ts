import { randomUUID } from 'node:crypto';
import { brands, type TwoFactorMethod } from '@portal/contracts';
import { createOneTimeTokens } from '../../platform/one-time-tokens';
import { AppError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import type { FactorProof, SecondFactorDependencies, SecondFactorService } from './second-factor';
import { RECOVERY_CODE_COUNT, matchTotp, newRecoveryCode, newTotpSecret, qrCodeDataUrl, recoveryCodeHash, totpUri } from './codes';
import type { UserRow } from '../users';
import { mfaQueries, type MfaTokenPurpose } from './queries';

/** A pending TOTP secret waits this long for its first code. */
const TOTP_SETUP_TTL_SECONDS = 10 * 60;

export type MfaService = ReturnType<typeof createMfaService>;

/**
 * Two-step verification as the account pages manage it (TOTP, email, recovery codes). The
 * checks themselves live in the second-factor service.
 */
export interface MfaDependencies extends SecondFactorDependencies {
  secondFactor: SecondFactorService;
}

export function createMfaService(deps: MfaDependencies) {
  const { clock, secondFactor } = deps;
  const queries = mfaQueries(deps.db);
  const tokens = createOneTimeTokens<MfaTokenPurpose>(deps);

  async function newRecoveryCodes(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await queries.replaceRecoveryCodes(
      userId,
      codes.map((code) => ({ id: randomUUID(), codeHash: deps.secrets.keyedHash(recoveryCodeHash(code)) })),
      clock.now(),
    );
    return codes;
  }

  function assertOff(user: UserRow): void {
    if (user.twoFactorMethod) throw new AppError('auth.two_factor_already_enabled');
  }

  function assertOn(user: UserRow): void {
    if (!user.twoFactorMethod) throw new AppError('auth.two_factor_not_enabled');
  }

  /** Password and a current code (or a recovery code): what turning off or regenerating takes. */
  async function confirm(user: UserRow, input: { password: string } & FactorProof): Promise<void> {
    assertOn(user);
    await secondFactor.confirmPassword(user, input.password);
    await secondFactor.requireFactor(user, input, 'two_factor_email');
  }

  return {
    /** Protects secrets stored before they were protected (run once at start; idempotent). */
    protectLegacySecrets: () => queries.protectLegacySecrets(deps.secrets),

    async status(user: UserRow): Promise<{ method: TwoFactorMethod | null; recovery_codes_remaining: number }> {
      const method = user.twoFactorMethod === 'totp' || user.twoFactorMethod === 'email' ? user.twoFactorMethod : null;
      return { method, recovery_codes_remaining: method ? await queries.countRecoveryCodes(user.id) : 0 };
    },

    /** A new secret, pending until a code from it turns TOTP on. Each setup replaces the last. */
    async totpSetup(user: UserRow, origin: RequestOrigin) {
      assertOff(user);
      const secret = newTotpSecret();
      // The link itself is never presented: the pending secret is found by user.
      await tokens.issueLink(user.id, 'totp_setup', TOTP_SETUP_TTL_SECONDS, { payload: { secret: deps.secrets.seal(secret) } });
      const otpauthUrl = totpUri(brands[origin.brand].title, user.email, secret);
      return { secret, otpauth_url: otpauthUrl, qr_code: await qrCodeDataUrl(otpauthUrl) };
    },

    /** Turns TOTP on with a code from the app; the code proves the second step for the session that did it (`sessionId`). */
    async totpEnable(user: UserRow, code: string, origin: RequestOrigin, sessionId: string) {
      assertOff(user);
      const pending = await tokens.latest(user.id, 'totp_setup');
      const secret = typeof pending?.payload?.secret === 'string' ? deps.secrets.open(pending.payload.secret) : undefined;
      const matched = { step: null as number | null };
      await secondFactor.throttledCheck(user.id, async () => {
        matched.step = secret ? await matchTotp(secret, code, clock.now()) : null;
        return matched.step !== null;
      });
      if (!pending || !secret || matched.step === null || !(await tokens.markUsed(pending.id))) throw new AppError('auth.code_invalid');
      // The enabling code's step is recorded, so it cannot be used again to sign in.
      if (!(await queries.enableTwoFactor(user.id, 'totp', deps.secrets.seal(secret), matched.step, clock.now()))) throw new AppError('auth.two_factor_already_enabled');
      // The person just proved the new second step: adding a passkey next needs no other code.
      await deps.sessions.prove(sessionId, true);
      secondFactor.notify(user, origin, 'two_factor_enabled', 'authenticator app');
      return { recovery_codes: await newRecoveryCodes(user.id) };
    },

    /**
     * Mails a code: to turn the email method on, or, when it is on, to confirm turning it off
     * or regenerating recovery codes. Not while TOTP is on (turn that off first).
     */
    async emailSend(user: UserRow, origin: RequestOrigin): Promise<void> {
      if (user.twoFactorMethod === 'totp') throw new AppError('auth.two_factor_already_enabled');
      await secondFactor.throttleCodeSend(user.email, origin.limitAddress, 'two_factor_email');
      await secondFactor.mailCode(user, 'two_factor_email', origin);
    },

    /** Turns the email method on with the mailed code, which proves the second step for the session that did it. */
    async emailEnable(user: UserRow, code: string, origin: RequestOrigin, sessionId: string) {
      assertOff(user);
      await secondFactor.throttledCheck(user.id, () => secondFactor.checkCode(user.id, 'two_factor_email', code));
      if (!(await queries.enableTwoFactor(user.id, 'email', null, null, clock.now()))) throw new AppError('auth.two_factor_already_enabled');
      await deps.sessions.prove(sessionId, true);
      secondFactor.notify(user, origin, 'two_factor_enabled', 'email');
      return { recovery_codes: await newRecoveryCodes(user.id) };
    },

    async disable(user: UserRow, input: { password: string } & FactorProof, origin: RequestOrigin): Promise<void> {
      await confirm(user, input);
      if (!(await queries.disableTwoFactor(user.id, clock.now()))) throw new AppError('auth.two_factor_not_enabled');
      secondFactor.notify(user, origin, 'two_factor_disabled');
    },

    /**
     * An operator turns two-step off for a person who lost their factor (the console's reset,
     * with a reason in the operator audit log); the person is told by mail. False when it was off.
     */
    async resetByOperator(user: UserRow, origin: RequestOrigin): Promise<boolean> {
      if (!(await queries.disableTwoFactor(user.id, clock.now()))) return false;
      secondFactor.notify(user, origin, 'two_factor_disabled');
      return true;
    },

    async regenerateRecoveryCodes(user: UserRow, input: { password: string } & FactorProof) {
      await confirm(user, input);
      return { recovery_codes: await newRecoveryCodes(user.id) };
    },
  };
}

import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { brands, type BrandId, type ErrorCode } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { withMfa, type AuthService, type SignIn } from '../auth';
import type { SecondFactorService } from '../mfa';
import { describeClient, type SignInResult } from '../sessions';
import { createUserService, type UserRow } from '../users';
import { passkeyQueries, type ChallengePurpose, type PasskeyRow } from './queries';

/** Challenges are single use and live 5 minutes; the browser prompt gets the same time. */
const CHALLENGE_TTL_SECONDS = 5 * 60;

/** The spec's algorithms as COSE identifiers. */
const COSE_ALGORITHMS = { es256: -7, rs256: -257 } as const;
type AlgorithmName = keyof typeof COSE_ALGORITHMS;

/** Both a discoverable credential (usernameless sign-in) and a verified user (PIN, biometrics). */
const authenticatorSelection = { residentKey: 'required', requireResidentKey: true, userVerification: 'required' } as const;

/** Creation or request options JSON, passed through to the browser as they are. */
type WebAuthnOptions = Record<string, unknown>;
const asJson = (options: object): WebAuthnOptions => ({ ...options });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PasskeyDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  auth: AuthService;
  signIn: SignIn;
  secondFactor: SecondFactorService;
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;

/**
 * The relying party of a request's brand: the origin its pages are served from, and that
 * origin's host name as the RP ID (so a passkey made on one brand never signs in to the other).
 */
export function relyingParty(config: Config, brand: BrandId) {
  const origin = originFor(config, brand);
  return { origin, rpID: new URL(origin).hostname, rpName: brands[brand].title };
}

/** The challenge a browser signed, read from clientDataJSON; undefined when the shape is wrong. */
function signedChallenge(response: Record<string, unknown>): string | undefined {
  const inner = response.response;
  if (!inner || typeof inner !== 'object') return undefined;
  const clientDataJSON = (inner as Record<string, unknown>).clientDataJSON;
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 8192) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).challenge : undefined;
    return typeof challenge === 'string' && challenge.length <= 512 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

export function toPasskeyDto(row: PasskeyRow) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    device_type: row.deviceType,
    backed_up: row.backedUp,
  };
}

/** "Chrome 126 · Apple Macintosh · macOS 14": a default name for a passkey, from the browser that made it. */
function defaultName(origin: RequestOrigin): string {
  const client = describeClient(origin.userAgent, origin.ip);
  return [client.browser, client.device].filter(Boolean).join(' · ').slice(0, 60) || 'Passkey';
}

/**
 * Passkeys (WebAuthn via @simplewebauthn/server): sign-up, sign-in with discoverable
 * credentials, and adding, renaming and removing them from the account.
 */
export function createPasskeyService(deps: PasskeyDependencies) {
  const { config, clock, limiter, auth, signIn, secondFactor } = deps;
  const queries = passkeyQueries(deps.db);
  const users = createUserService(deps.db);

  async function storeChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null, payload: Record<string, unknown>): Promise<void> {
    const now = clock.now();
    await queries.insertChallenge(
      {
        id: randomUUID(),
        challengeHash: sha256(challenge),
        purpose,
        userId,
        payload,
        expiresAt: new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
      },
      now,
    );
  }

  /**
   * Finds and uses up the challenge a response signed. Any attempt spends it, good or bad, so
   * a challenge can never be tried twice.
   */
  async function claim(response: Record<string, unknown>, purpose: ChallengePurpose, failure: ErrorCode) {
    const challenge = signedChallenge(response);
    const row = challenge ? await queries.claimChallenge(sha256(challenge), purpose, clock.now()) : undefined;
    if (!challenge || !row) throw new AppError(failure);
    return { challenge, row };
  }

  function algorithmIds(payload: Record<string, unknown> | null): number[] {
    const names = Array.isArray(payload?.algorithms) ? (payload.algorithms as AlgorithmName[]) : [];
    return names.map((name) => COSE_ALGORITHMS[name]).filter((id) => id !== undefined);
  }

  /** Verifies an attestation against a claimed challenge; throws `failure` on any problem. */
  async function verifyRegistration(response: Record<string, unknown>, purpose: ChallengePurpose, origin: RequestOrigin, failure: ErrorCode) {
    const { challenge, row } = await claim(response, purpose, failure);
    const rp = relyingParty(config, origin.brand);
    try {
      const result = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserPresence: true,
        requireUserVerification: true,
        supportedAlgorithmIDs: algorithmIds(row.payload),
      });
      if (!result.verified) throw new AppError(failure);
      return { row, info: result.registrationInfo };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(failure);
    }
  }

  async function storePasskey(userId: string, info: Awaited<ReturnType<typeof verifyRegistration>>['info'], name: string): Promise<PasskeyRow | undefined> {
    return queries.insert({
      id: randomUUID(),
      userId,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name,
      createdAt: clock.now(),
    });
  }

  async function creationOptions(origin: RequestOrigin, user: { id: string; email: string; fullName: string }, algorithms: AlgorithmName[], exclude: PasskeyRow[]) {
    const rp = relyingParty(config, origin.brand);
    return generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpID,
      userName: user.email,
      userID: new Uint8Array(Buffer.from(user.id, 'utf8')),
      userDisplayName: user.fullName,
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      attestationType: 'none',
      excludeCredentials: exclude.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      authenticatorSelection,
      supportedAlgorithmIDs: algorithms.map((name) => COSE_ALGORITHMS[name]),
    });
  }

  /**
   * Checks an assertion of a stored passkey against a claimed challenge (user verification
   * required, the signature counter must grow) and records its use; throws `auth.passkey_failed`.
   */
  async function verifyAssertion(passkey: PasskeyRow, challenge: string, response: Record<string, unknown>, origin: RequestOrigin): Promise<void> {
    const rp = relyingParty(config, origin.brand);
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      // Refuses a counter that does not increase (when either side is nonzero): a cloned authenticator.
      verified = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: true,
      });
    } catch {
      throw new AppError('auth.passkey_failed');
    }
    if (!verified.verified) throw new AppError('auth.passkey_failed');
    const { newCounter, credentialBackedUp } = verified.authenticationInfo;
    if (!(await queries.recordUse(passkey.id, passkey.counter, newCounter, credentialBackedUp, clock.now()))) throw new AppError('auth.passkey_failed');
  }

  /** Option calls are cheap but write a row: bounded per IP. */
  async function limitOptions(origin: RequestOrigin): Promise<void> {
    rateLimited(await limiter.consume(rateKey(limits.signInPerIp, `webauthn:${origin.limitAddress}`), limits.signInPerIp));
  }

  return {
    relyingParty: (brand: BrandId) => relyingParty(config, brand),

    /** Creation options for a passkey sign-up; the pending name and email ride in the challenge. */
    async registerOptions(input: { algorithms: AlgorithmName[]; email: string; full_name: string; captcha?: string }, origin: RequestOrigin): Promise<WebAuthnOptions> {
      await limitOptions(origin);
      // A sign-up like the password one: the same captcha, so neither is the way around the other.
      await auth.requireCaptcha(input.captcha, origin.ip);
      // The id the account will get: the passkey's user handle names it from the start.
      const pending = { id: randomUUID(), email: input.email, fullName: input.full_name };
      const options = await creationOptions(origin, pending, input.algorithms, []);
      await storeChallenge(options.challenge, 'register', null, { user_id: pending.id, email: pending.email, full_name: pending.fullName, algorithms: input.algorithms });
      return asJson(options);
    },

    /**
     * Finishes a passkey sign-up: an inactive account without a password, holding the passkey,
     * activated by the mailed link. A taken email answers the same, mails its owner, stores nothing.
     */
    async register(response: Record<string, unknown>, origin: RequestOrigin, browser: string): Promise<{ email: string }> {
      rateLimited(await limiter.consume(rateKey(limits.signUpPerIp, origin.limitAddress), limits.signUpPerIp));
      const { row, info } = await verifyRegistration(response, 'register', origin, 'auth.passkey_signup_failed');
      const payload = row.payload ?? {};
      const email = String(payload.email ?? '');
      const user = await auth.registerAccount(
        { id: String(payload.user_id), email, fullName: String(payload.full_name ?? ''), passwordHash: null, language: origin.lang },
        origin,
        browser,
      );
      if (user && !(await storePasskey(user.id, info, defaultName(origin)))) throw new AppError('auth.passkey_signup_failed');
      return { email };
    },

    /** Creation options to add a passkey to the signed-in account. */
    async enableOptions(user: UserRow, algorithms: AlgorithmName[], origin: RequestOrigin): Promise<WebAuthnOptions> {
      const options = await creationOptions(origin, user, algorithms, await queries.list(user.id));
      await storeChallenge(options.challenge, 'enable', user.id, { algorithms });
      return asJson(options);
    },

    async enable(user: UserRow, response: Record<string, unknown>, name: string | undefined, origin: RequestOrigin) {
      const { row, info } = await verifyRegistration(response, 'enable', origin, 'auth.passkey_failed');
      if (row.userId !== user.id) throw new AppError('auth.passkey_failed');
      const stored = await storePasskey(user.id, info, name ?? defaultName(origin));
      if (!stored) throw new AppError('auth.passkey_failed');
      secondFactor.notify(user, origin, 'passkey_added', stored.name);
      return toPasskeyDto(stored);
    },

    /**
     * Request options for sign-in. Discoverable credentials only: allowCredentials is always
     * empty, so the answer never tells whether a username exists.
     */
    async authOptions(origin: RequestOrigin): Promise<WebAuthnOptions> {
      await limitOptions(origin);
      const rp = relyingParty(config, origin.brand);
      const options = await generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials: [], userVerification: 'required', timeout: CHALLENGE_TTL_SECONDS * 1000 });
      await storeChallenge(options.challenge, 'auth', null, {});
      return asJson(options);
    },

    /** Sign-in with a passkey, the pipeline's passkey way in: a session, or the second-factor step when two-step is on. */
    authenticate(input: { username?: string; response: Record<string, unknown> }, origin: RequestOrigin): Promise<SignInResult> {
      let found: { challenge: string; passkey: PasskeyRow } | undefined;
      return signIn.run(
        {
          method: 'passkey',
          async identify() {
            rateLimited(await limiter.consume(rateKey(limits.signInPerIp, origin.limitAddress), limits.signInPerIp));
            const { challenge } = await claim(input.response, 'auth', 'auth.passkey_failed');
            const credentialId = typeof input.response.id === 'string' ? input.response.id : '';
            const passkey = credentialId ? await queries.findByCredentialId(credentialId) : undefined;
            const user = passkey ? await users.findById(passkey.userId) : undefined;
            if (!passkey || !user) throw new AppError('auth.passkey_failed');
            if (input.username) {
              const named = input.username.trim().toLowerCase();
              if (named !== user.email && named !== user.username?.toLowerCase()) throw new AppError('auth.passkey_failed');
            }
            const inner = input.response.response as Record<string, unknown> | undefined;
            const userHandle = inner?.userHandle;
            if (typeof userHandle === 'string' && userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== user.id) {
              throw new AppError('auth.passkey_failed');
            }
            found = { challenge, passkey };
            return user;
          },
          async verify(user) {
            const { challenge, passkey } = found!;
            await verifyAssertion(passkey, challenge, input.response, origin);
            // Only failures count against the address (see signInIpKey in auth): a success gives its hit back.
            await limiter.refund(rateKey(limits.signInPerIp, origin.limitAddress));
            // ...and the options call that began it, so a crowd behind one address keeps signing in with passkeys.
            await limiter.refund(rateKey(limits.signInPerIp, `webauthn:${origin.limitAddress}`));
            // User verification is required above, so the passkey proves both factors.
            return { user: user!, amr: withMfa(['hwk', 'user']) };
          },
        },
        input,
        origin,
      );
    },

    /**
     * Request options to prove it is the signed-in person again (re-authentication before a
     * sensitive change): only the account's own passkeys are allowed, and the challenge is
     * bound to the account. An account without passkeys answers `auth.passkey_not_found`.
     */
    async reauthOptions(user: UserRow, origin: RequestOrigin): Promise<WebAuthnOptions> {
      await limitOptions(origin);
      const own = await queries.list(user.id);
      if (own.length === 0) throw new AppError('auth.passkey_not_found');
      const rp = relyingParty(config, origin.brand);
      const options = await generateAuthenticationOptions({
        rpID: rp.rpID,
        allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
        userVerification: 'required',
        timeout: CHALLENGE_TTL_SECONDS * 1000,
      });
      await storeChallenge(options.challenge, 'reauth', user.id, {});
      return asJson(options);
    },

    /**
     * Re-authentication with a passkey: an assertion of one of this account's passkeys for a
     * challenge from reauthOptions issued to this account, user-verified, its counter growing.
     * Throttled per address like the passkey sign-in (a success gives its hit back).
     */
    async confirm(user: UserRow, response: Record<string, unknown>, origin: RequestOrigin): Promise<void> {
      rateLimited(await limiter.consume(rateKey(limits.signInPerIp, origin.limitAddress), limits.signInPerIp));
      const { challenge, row } = await claim(response, 'reauth', 'auth.passkey_failed');
      const credentialId = typeof response.id === 'string' ? response.id : '';
      const passkey = credentialId ? await queries.findByCredentialId(credentialId) : undefined;
      if (row.userId !== user.id || !passkey || passkey.userId !== user.id) throw new AppError('auth.passkey_failed');
      await verifyAssertion(passkey, challenge, response, origin);
      await limiter.refund(rateKey(limits.signInPerIp, origin.limitAddress));
      await limiter.refund(rateKey(limits.signInPerIp, `webauthn:${origin.limitAddress}`));
    },

    list: async (userId: string) => (await queries.list(userId)).map(toPasskeyDto),
    count: (userId: string) => queries.count(userId),

    async rename(userId: string, id: string, name: string) {
      const row = UUID.test(id) ? await queries.rename(userId, id, name) : undefined;
      if (!row) throw new AppError('auth.passkey_not_found');
      return toPasskeyDto(row);
    },

    async remove(user: UserRow, id: string, origin: RequestOrigin): Promise<void> {
      const row = UUID.test(id) ? await queries.remove(user.id, id) : undefined;
      if (!row) throw new AppError('auth.passkey_not_found');
      secondFactor.notify(user, origin, 'passkey_removed', row.name);
    },
  };
}

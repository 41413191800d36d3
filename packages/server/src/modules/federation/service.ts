import { randomUUID } from 'node:crypto';
import { SOCIAL_PROVIDERS, type LinkedIdentities, type SocialProviderId, type SocialSignUpOffer } from '@portal/contracts';
import { generateCodeVerifier, generateState } from 'arctic';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { randomDigits, randomToken, safeEqual, sha256 } from '../../platform/crypto';
import type { DataProtection } from '../../platform/data-protection';
import { AppError } from '../../platform/errors';
import { sendInBackground, type Mailer } from '../../platform/mail';
import { limits, rateLimited, rateKey, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import type { WayIn } from '../auth';
import { notifySecurityEvent } from '../notifications';
import type { SessionRow, SignedIn, SignInResult } from '../sessions';
import { createUserService, type UserRow } from '../users';
import { socialSignupCodeMail } from './mail';
import { createSocialProviders, type AuthorizationSecrets, type OutsideIdentity } from './providers';
import { federationQueries } from './queries';

/** How long a started sign-in (its state cookie) and an offered sign-up (and its mailed code) live. */
const STATE_TTL_SECONDS = 10 * 60;
const SIGNUP_TTL_SECONDS = 30 * 60;
const CODE_MAX_ATTEMPTS = 5;

/** The cookie that binds a started sign-in to this browser: state, PKCE verifier and nonce, sealed. */
export const SOCIAL_STATE_COOKIE = 'portal_social';
export const SOCIAL_STATE_MAX_AGE = STATE_TTL_SECONDS;

interface StartedSignIn extends AuthorizationSecrets {
  provider: SocialProviderId;
  intent: 'sign_in' | 'link';
  /** The account a link was started from. */
  userId?: string;
  expiresAt: number;
}

export interface FederationDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  secrets: DataProtection;
  log: { error(object: unknown, message: string): void; warn(object: unknown, message: string): void };
  /** The sign-in pipeline (auth module): the social way in ends like every other. */
  signIn: { run<Input>(way: WayIn<Input>, input: Input, origin: RequestOrigin): Promise<SignInResult> };
  /** Whether a session proved a factor recently (linking adds a way in). */
  provedRecently(session: SessionRow): Promise<boolean>;
}

/** Who is calling, when signed in. */
export interface Caller {
  user: UserRow;
  session: SessionRow;
}

export type AuthorizeAnswer = SignInResult | SocialSignUpOffer | { linked: true; provider: SocialProviderId };

export type FederationService = ReturnType<typeof createFederationService>;

/**
 * Social sign-in: the redirect to a provider (state, nonce and PKCE bound to the browser by a
 * sealed cookie), the code exchange, and what the identity leads to. An identity links to an
 * existing account by itself only when the provider proved the email and the account's owner
 * proved it too (the account is active); otherwise the person signs in first and links it from
 * the security page. A new person finishes at /create-user, and no account exists until its
 * email is proven (by the provider or by a mailed code).
 */
export function createFederationService(deps: FederationDependencies) {
  const { config, clock, secrets } = deps;
  const queries = federationQueries(deps.db);
  const users = createUserService(deps.db);
  const providers = createSocialProviders(config.socialProviders, deps.log);

  const redirectUri = (origin: RequestOrigin) => `${originFor(config, origin.brand)}/callback`;
  const displayName = (id: SocialProviderId) => SOCIAL_PROVIDERS[id].name;
  /** A refusal that names the provider, in the message and in the details the web app words it from. */
  const providerError = (code: 'social.account_exists' | 'social.linked_elsewhere' | 'social.already_linked', id: SocialProviderId) =>
    new AppError(code, { provider: displayName(id) }, { provider: displayName(id) });

  /** A configured provider whose app is for this brand. */
  function providerFor(id: SocialProviderId, origin: RequestOrigin) {
    const settings = config.socialProviders.find((entry) => entry.id === id);
    const provider = providers.get(id);
    if (!settings || !provider || !settings.brands.includes(origin.brand)) throw new AppError('social.provider_unavailable');
    return provider;
  }

  /** The social way in: the provider vouched for the person; the shared steps take over. */
  const socialWay: WayIn<{ user: UserRow; linkedNow?: SocialProviderId }> = {
    method: 'social',
    async identify(input) {
      return input.user;
    },
    async verify(user, input) {
      return { user: user!, amr: ['social'], events: input.linkedNow ? [{ kind: 'social_linked', detail: displayName(input.linkedNow) }] : [] };
    },
  };

  function readStarted(sealed: string | undefined, provider: SocialProviderId, state: string): StartedSignIn {
    let started: StartedSignIn | undefined;
    try {
      started = sealed ? (JSON.parse(secrets.open(sealed)) as StartedSignIn) : undefined;
    } catch {
      started = undefined;
    }
    if (!started || !secrets.isSealed(sealed!) || started.provider !== provider || !safeEqual(started.state, state) || started.expiresAt < clock.now().getTime()) {
      throw new AppError('social.state_invalid');
    }
    return started;
  }

  async function offerSignUp(provider: SocialProviderId, identity: OutsideIdentity): Promise<SocialSignUpOffer> {
    const token = randomToken();
    await queries.sweepSignups(clock.now());
    await queries.insertSignup({
      id: randomUUID(),
      tokenHash: sha256(token),
      provider,
      subject: identity.subject,
      providerEmail: identity.email,
      providerEmailVerified: identity.emailVerified,
      fullName: identity.name.slice(0, 100),
      expiresAt: new Date(clock.now().getTime() + SIGNUP_TTL_SECONDS * 1000),
    });
    return { signup_required: true, signup_token: token, provider, email: identity.email, email_verified: identity.emailVerified, full_name: identity.name.slice(0, 100) };
  }

  /** Creates the account (active: its email is proven), links the identity and signs in. */
  async function createAccount(signup: { provider: string; subject: string; email: string; fullName: string; language: string }, origin: RequestOrigin): Promise<SignedIn> {
    const provider = signup.provider as SocialProviderId;
    if (await users.findByEmail(signup.email)) throw providerError('social.account_exists', provider);
    const now = clock.now();
    const id = randomUUID();
    const inserted = await users.insert({ id, email: signup.email, fullName: signup.fullName, passwordHash: null, language: signup.language, customerLanguage: signup.language, createdAt: now, updatedAt: now });
    if (!inserted) throw providerError('social.account_exists', provider);
    await users.activate(id, now);
    if (!(await queries.link({ provider, subject: signup.subject, userId: id, email: signup.email, linkedAt: now, lastUsedAt: now }))) {
      throw providerError('social.linked_elsewhere', provider);
    }
    const user = (await users.findById(id))!;
    const result = await deps.signIn.run(socialWay, { user }, origin);
    if (!('token' in result)) throw new Error('a new account answered a second step');
    return result;
  }

  return {
    /** The provider's authorization URL and the sealed cookie that remembers this start. */
    async start(id: SocialProviderId, intent: 'sign_in' | 'link', caller: Caller | undefined, origin: RequestOrigin): Promise<{ url: string; cookie: string }> {
      const provider = providerFor(id, origin);
      rateLimited(await deps.limiter.consume(rateKey(limits.signInPerIp, `social:${origin.limitAddress}`), limits.signInPerIp));
      if (intent === 'link') {
        if (!caller) throw new AppError('unauthorized');
        // A new way into the account: only right after proving who you are.
        if (!(await deps.provedRecently(caller.session))) throw new AppError('auth.reauth_required');
      }
      const started: StartedSignIn = {
        provider: id,
        intent,
        ...(intent === 'link' && caller ? { userId: caller.user.id } : {}),
        state: `${id}.${generateState()}`,
        codeVerifier: generateCodeVerifier(),
        nonce: randomToken(16),
        expiresAt: clock.now().getTime() + STATE_TTL_SECONDS * 1000,
      };
      const url = await provider.authorizationUrl(started, redirectUri(origin));
      return { url: url.toString(), cookie: secrets.seal(JSON.stringify(started)) };
    },

    /** The code /callback received: sign in, link, or offer a sign-up. */
    async authorize(id: SocialProviderId, callback: { code: string; state: string; iss?: string }, sealed: string | undefined, caller: Caller | undefined, origin: RequestOrigin): Promise<AuthorizeAnswer> {
      const provider = providerFor(id, origin);
      const started = readStarted(sealed, id, callback.state);
      const identity = await provider.identify(callback, started, redirectUri(origin));
      const existing = await queries.findIdentity(id, identity.subject);
      const now = clock.now();

      if (started.intent === 'link') {
        // The link must finish in the account (and browser session) that started it.
        if (!caller || caller.user.id !== started.userId) throw new AppError('social.state_invalid');
        if (existing) {
          if (existing.userId === caller.user.id) return { linked: true, provider: id };
          throw providerError('social.linked_elsewhere', id);
        }
        if (!(await queries.link({ provider: id, subject: identity.subject, userId: caller.user.id, email: identity.email, linkedAt: now, lastUsedAt: null }))) {
          throw providerError('social.already_linked', id);
        }
        await notifySecurityEvent(deps, caller.user.id, 'social_linked', { brand: origin.brand, detail: displayName(id) });
        return { linked: true, provider: id };
      }

      if (existing) {
        const user = await users.findById(existing.userId);
        if (!user || user.purgedAt) throw new AppError('1002');
        await queries.touch(id, identity.subject, now);
        return deps.signIn.run(socialWay, { user }, origin);
      }

      const account = identity.email ? await users.findByEmail(identity.email) : undefined;
      if (account) {
        // Both sides proved the mailbox: the same person. Anything less could hand the account
        // to whoever controls the provider account (or registered the address first).
        if (identity.emailVerified && account.activatedAt && !account.purgedAt) {
          if (await queries.link({ provider: id, subject: identity.subject, userId: account.id, email: identity.email, linkedAt: now, lastUsedAt: now })) {
            return deps.signIn.run(socialWay, { user: account, linkedNow: id }, origin);
          }
        }
        throw providerError('social.account_exists', id);
      }
      return offerSignUp(id, identity);
    },

    /**
     * /create-user: the provider's proven email signs up at once; any other email gets a code
     * (the account is made only when it is proven).
     */
    async signUp(input: { signup_token: string; full_name: string; email: string; language?: string }, origin: RequestOrigin): Promise<SignedIn | { verification_required: true; email: string }> {
      rateLimited(await deps.limiter.consume(rateKey(limits.signUpPerIp, origin.limitAddress), limits.signUpPerIp));
      const signup = await queries.liveSignup(sha256(input.signup_token), clock.now());
      if (!signup) throw new AppError('social.signup_expired');
      const email = input.email.toLowerCase();
      const language = input.language ?? origin.lang;
      const provider = signup.provider as SocialProviderId;
      if (await users.findByEmail(email)) throw providerError('social.account_exists', provider);
      if (signup.providerEmailVerified && signup.providerEmail === email) {
        if (!(await queries.finishSignup(signup.id, clock.now()))) throw new AppError('social.signup_expired');
        return createAccount({ provider, subject: signup.subject, email, fullName: input.full_name, language }, origin);
      }
      // Limited per address, as every mailed code is: a new sign-up offer must not buy another mailbox's codes.
      rateLimited(await deps.limiter.consume(rateKey(limits.codeSendPerIp, origin.limitAddress), limits.codeSendPerIp));
      rateLimited(await deps.limiter.consume(rateKey(limits.codeSendInterval, `social_signup:${email}`), limits.codeSendInterval));
      rateLimited(await deps.limiter.consume(rateKey(limits.codeSendPerAccount, email), limits.codeSendPerAccount));
      const code = randomDigits(6);
      await queries.awaitCode(signup.id, { email, chosenName: input.full_name, language, codeHash: sha256(`${signup.id}:${code}`) });
      sendInBackground(deps.mailer, deps.log, {
        to: email,
        ...socialSignupCodeMail({ lang: origin.lang, brand: origin.brand, name: input.full_name, code, provider: displayName(provider), validMinutes: SIGNUP_TTL_SECONDS / 60 }),
      });
      return { verification_required: true, email };
    },

    /**
     * The mailed code: each guess is taken in one statement before it is compared; five per code.
     * Every guess also spends the address's budget of wrong codes across codes and sign-ups
     * (`code:fail`, keyed as a reset code's for an address nobody has), returned when right:
     * many offers naming one address do not add up to more guesses at its mailbox.
     */
    async verifySignUp(input: { signup_token: string; code: string }, origin: RequestOrigin): Promise<SignedIn> {
      const tokenHash = sha256(input.signup_token);
      const live = await queries.liveSignup(tokenHash, clock.now());
      if (!live) throw new AppError('social.signup_expired');
      const budgetKey = rateKey(limits.codeFailuresPerAccount, `unknown:${live.email ?? live.id}`);
      rateLimited(await deps.limiter.consume(budgetKey, limits.codeFailuresPerAccount));
      const signup = await queries.takeGuess(tokenHash, clock.now(), CODE_MAX_ATTEMPTS);
      if (!signup?.codeHash || !signup.email || !safeEqual(signup.codeHash, sha256(`${signup.id}:${input.code}`))) {
        throw new AppError('auth.code_invalid');
      }
      await deps.limiter.refund(budgetKey);
      if (!(await queries.finishSignup(signup.id, clock.now()))) throw new AppError('social.signup_expired');
      return createAccount({ provider: signup.provider, subject: signup.subject, email: signup.email, fullName: signup.chosenName ?? signup.fullName, language: signup.language ?? origin.lang }, origin);
    },

    async linked(user: UserRow, origin: RequestOrigin): Promise<LinkedIdentities> {
      const rows = await queries.identitiesOf(user.id);
      const offered = config.socialProviders.filter((entry) => entry.brands.includes(origin.brand)).map((entry) => entry.id);
      return {
        identities: rows.map((row) => ({ provider: row.provider as SocialProviderId, email: row.email, linked_at: row.linkedAt.toISOString() })),
        available: offered.filter((id) => !rows.some((row) => row.provider === id)),
      };
    },

    async unlink(user: UserRow, id: SocialProviderId, origin: RequestOrigin): Promise<void> {
      const outcome = await queries.unlinkKeepingAWayIn(user.id, id);
      if (outcome === 'not_linked') throw new AppError('social.not_linked');
      if (outcome === 'last_method') throw new AppError('social.last_method');
      await notifySecurityEvent(deps, user.id, 'social_unlinked', { brand: origin.brand, detail: displayName(id) });
    },
  };
}

import type { SocialProviderId } from '@portal/contracts';
import { ArcticFetchError, CodeChallengeMethod, OAuth2Client, OAuth2RequestError } from 'arctic';
import * as oidc from 'openid-client';
import type { SocialProviderSettings } from '../../social-config';
import { AppError } from '../../platform/errors';

/** Who the provider says signed in. The subject is the provider's stable id; an email may be missing or unproven. */
export interface OutsideIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

/** What one sign-in needs to remember between the redirect and the code exchange. */
export interface AuthorizationSecrets {
  state: string;
  codeVerifier: string;
  nonce: string;
}

export interface SocialProvider {
  id: SocialProviderId;
  authorizationUrl(secrets: AuthorizationSecrets, redirectUri: string): Promise<URL>;
  /** Exchanges the code (with the PKCE verifier and, for OpenID Connect, the nonce); throws 1002 when the provider refuses it. */
  identify(callback: { code: string; state: string; iss?: string }, secrets: AuthorizationSecrets, redirectUri: string): Promise<OutsideIdentity>;
}

export interface ProviderLog {
  warn(object: unknown, message: string): void;
}

const unavailable = (log: ProviderLog, id: string, error: unknown): AppError => {
  log.warn({ provider: id, err: error instanceof Error ? error.message : String(error) }, 'social provider unreachable');
  return new AppError('social.provider_unavailable');
};

/** A refusal of the code (used, expired, forged) is the spec's 1002; anything else is the provider failing. */
function exchangeFailure(log: ProviderLog, id: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof OAuth2RequestError || error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) return new AppError('1002');
  if (error instanceof ArcticFetchError || (error instanceof TypeError && /fetch/i.test(error.message))) return unavailable(log, id, error);
  // openid-client's checks of the answer (state, nonce, issuer, signature): not a code we accept.
  log.warn({ provider: id, err: error instanceof Error ? error.message : String(error) }, 'social code exchange refused');
  return new AppError('1002');
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
/** Apple sends `email_verified` as the string "true". */
const isTrue = (value: unknown) => value === true || value === 'true';

/** GitHub and Facebook: OAuth 2.0 with PKCE (arctic's generic client, so every address is configurable) and a profile API. */
function oauth2Provider(settings: Extract<SocialProviderSettings, { kind: 'oauth2' }>, log: ProviderLog): SocialProvider {
  const github = settings.id === 'github' || settings.id === 'githubLocker';
  const scopes = github ? ['read:user', 'user:email'] : ['email', 'public_profile'];
  const client = (redirectUri: string) => new OAuth2Client(settings.clientId, settings.clientSecret, redirectUri);

  async function api(path: string, accessToken: string): Promise<unknown> {
    const response = await fetch(`${settings.apiUrl.replace(/\/$/, '')}${path}`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: github ? 'application/vnd.github+json' : 'application/json', 'user-agent': 'identity-portal' },
      signal: AbortSignal.timeout(10_000),
    }).catch((error: unknown) => {
      throw unavailable(log, settings.id, error);
    });
    if (!response.ok) throw unavailable(log, settings.id, new Error(`${path} answered ${response.status}`));
    return response.json();
  }

  async function profile(accessToken: string): Promise<OutsideIdentity> {
    if (github) {
      const user = (await api('/user', accessToken)) as { id?: unknown; login?: unknown; name?: unknown };
      const emails = (await api('/user/emails', accessToken)) as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>;
      const primary = Array.isArray(emails) ? emails.find((entry) => entry.primary === true) : undefined;
      if (user.id === undefined || user.id === null) throw unavailable(log, settings.id, new Error('no user id'));
      return { subject: String(user.id), email: text(primary?.email)?.toLowerCase() ?? null, emailVerified: primary?.verified === true, name: text(user.name) ?? text(user.login) ?? '' };
    }
    const me = (await api('/me?fields=id,name,email', accessToken)) as { id?: unknown; name?: unknown; email?: unknown };
    if (!text(me.id)) throw unavailable(log, settings.id, new Error('no user id'));
    // Facebook does not say whether the address was confirmed: it is treated as unproven.
    return { subject: String(me.id), email: text(me.email)?.toLowerCase() ?? null, emailVerified: false, name: text(me.name) ?? '' };
  }

  return {
    id: settings.id,
    async authorizationUrl(secrets, redirectUri) {
      return client(redirectUri).createAuthorizationURLWithPKCE(settings.authorizationUrl, secrets.state, CodeChallengeMethod.S256, secrets.codeVerifier, scopes);
    },
    async identify(callback, secrets, redirectUri) {
      let accessToken: string;
      try {
        accessToken = (await client(redirectUri).validateAuthorizationCode(settings.tokenUrl, callback.code, secrets.codeVerifier)).accessToken();
      } catch (error) {
        throw exchangeFailure(log, settings.id, error);
      }
      return profile(accessToken);
    },
  };
}

/**
 * An OpenID Connect relying party by discovery (openid-client): the authorization URL with
 * state, nonce and PKCE, and the code exchange whose ID token openid-client checks (issuer,
 * audience, nonce, signature). Social providers and company SSO (modules/company-sso) use it.
 */
export function openIdRelyingParty(settings: { label: string; issuer: string; clientId: string; clientSecret: string; fetch?: oidc.CustomFetch }, log: ProviderLog) {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        // Plain http only for a provider on this machine (tests, a local IdP).
        execute: /^http:\/\/(127\.0\.0\.1|localhost)(:|\/|$)/.test(settings.issuer) ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
        // An issuer someone set (company SSO) is fetched through the egress guard: discovery, keys and tokens.
        ...(settings.fetch ? { [oidc.customFetch]: settings.fetch } : {}),
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw unavailable(log, settings.label, error);
      });
    return discovered;
  };
  return {
    async authorizationUrl(secrets: AuthorizationSecrets, redirectUri: string, extra: Record<string, string> = {}): Promise<URL> {
      const config = await configuration();
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
        ...extra,
      });
    },
    /** The ID token's claims; throws 1002 when the provider refuses the code or the token fails a check. */
    async claims(callback: { code: string; state: string; iss?: string }, secrets: AuthorizationSecrets, redirectUri: string): Promise<oidc.IDToken> {
      const config = await configuration();
      const current = new URL(redirectUri);
      current.searchParams.set('code', callback.code);
      current.searchParams.set('state', callback.state);
      if (callback.iss) current.searchParams.set('iss', callback.iss);
      let claims: oidc.IDToken | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: secrets.codeVerifier, expectedNonce: secrets.nonce, expectedState: secrets.state, idTokenExpected: true });
        claims = tokens.claims();
      } catch (error) {
        throw exchangeFailure(log, settings.label, error);
      }
      if (!claims) throw new AppError('1002');
      return claims;
    },
  };
}

/** Google, Microsoft, Apple and VinCSS: OpenID Connect by discovery, the ID token checked by openid-client (issuer, audience, nonce, signature). */
function oidcProvider(settings: Extract<SocialProviderSettings, { kind: 'oidc' }>, log: ProviderLog): SocialProvider {
  const party = openIdRelyingParty({ label: settings.id, issuer: settings.issuer, clientId: settings.clientId, clientSecret: settings.clientSecret }, log);
  return {
    id: settings.id,
    // Apple posts its answer (with the name) when scopes are asked; /callback accepts both.
    authorizationUrl: (secrets, redirectUri) => party.authorizationUrl(secrets, redirectUri, settings.id === 'apple' ? { response_mode: 'form_post' } : {}),
    async identify(callback, secrets, redirectUri) {
      const claims = await party.claims(callback, secrets, redirectUri);
      const email = text(claims.email)?.toLowerCase() ?? null;
      // Microsoft's `email` is whatever the tenant typed: proven only with its xms_edov claim.
      const verified = settings.id === 'microsoft' ? isTrue(claims.xms_edov) || claims.xms_edov === 1 : isTrue(claims.email_verified);
      const name = text(claims.name) ?? ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') || (email?.split('@')[0] ?? ''));
      return { subject: claims.sub, email, emailVerified: Boolean(email) && verified, name };
    },
  };
}

/** The configured providers, by id. */
export function createSocialProviders(settings: SocialProviderSettings[], log: ProviderLog): Map<SocialProviderId, SocialProvider> {
  return new Map(settings.map((entry) => [entry.id, entry.kind === 'oidc' ? oidcProvider(entry, log) : oauth2Provider(entry, log)]));
}

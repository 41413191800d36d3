import type { CompanySsoFinishRequest } from '@portal/contracts';
import { generateCodeVerifier, generateState } from 'arctic';
import type { Config } from '../../config';
import { originFor } from '../../platform/brand';
import { randomToken, safeEqual, sha256 } from '../../platform/crypto';
import { egressFetch, type EgressPolicy } from '../../platform/egress';
import { AppError } from '../../platform/errors';
import { limits, rateKey, rateLimited } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import type { WayIn } from '../auth';
import { openIdRelyingParty } from '../federation';
import type { SignInResult } from '../sessions';
import type { UserRow } from '../users';
import type { AssertedIdentity } from './accounts';
import type { CompanySsoDependencies } from './dependencies';
import { normalizeDomain } from './domains';
import { normalizeIdentifier } from './identifier';
import type { CompanySsoQueries, ConnectionRow } from './queries';
import { createSamlServiceProvider, SamlRefusal, type SamlIdentity } from './saml';
import { HANDOFF_TTL_SECONDS, sealedReader, START_TTL_SECONDS, type StartedSamlSignIn, type StartedSignIn } from './sealed';

/** The service provider's addresses: where the IdP sends the browser back (OIDC) or posts (SAML). */
export function serviceProviderUrls(config: Config) {
  const redirectUri = (brand: RequestOrigin['brand']) => `${originFor(config, brand)}/sso/redirect`;
  /** SAML's service-provider addresses of an identifier: the IdP posts to the platform origin's ACS. */
  const samlUrls = (identifier: string) => ({
    entityId: `${config.PLATFORM_ORIGIN}/v3/_auth/sso/saml/${identifier}`,
    acsUrl: `${config.PLATFORM_ORIGIN}/v3/_auth/sso/saml/${identifier}/acs`,
  });
  /** The addresses to register at the IdP for this identifier. */
  const registrationUrls = (identifier: string) => ({ oidcRedirectUris: [redirectUri('platform'), redirectUri('locker')], ...samlUrls(identifier) });
  return { redirectUri, samlUrls, registrationUrls };
}

/**
 * Signing in through an organization's IdP: /login/sso finds it and starts (OpenID Connect or
 * SAML 2.0), the SAML ACS checks the IdP's answer, /sso/redirect finishes; the account comes
 * from `accountFor` and the sign-in ends in the one pipeline.
 */
export function companySsoSignIn(
  deps: Pick<CompanySsoDependencies, 'config' | 'clock' | 'secrets' | 'limiter' | 'log' | 'signIn'>,
  queries: CompanySsoQueries,
  egress: EgressPolicy,
  accountFor: (connection: ConnectionRow, identity: AssertedIdentity) => Promise<UserRow>,
) {
  const { config, clock, secrets } = deps;
  const { redirectUri, samlUrls } = serviceProviderUrls(config);
  const openSealed = sealedReader(secrets, clock);

  /** One relying party per connection, remade when the connection changes. */
  const parties = new Map<string, { version: number; party: ReturnType<typeof openIdRelyingParty> }>();
  function relyingParty(connection: ConnectionRow) {
    const version = connection.updatedAt.getTime();
    const cached = parties.get(connection.organizationId);
    if (cached?.version === version) return cached.party;
    const party = openIdRelyingParty(
      {
        label: `sso:${connection.identifier}`,
        issuer: connection.oidcIssuer!,
        clientId: connection.oidcClientId!,
        clientSecret: secrets.open(connection.oidcClientSecret!),
        // An anonymous start makes the server fetch the issuer: only through the egress guard (no SSRF).
        fetch: (url, options) => egressFetch(url, options, egress),
      },
      deps.log,
    );
    parties.set(connection.organizationId, { version, party });
    return party;
  }
  /** The federation helper's refusals, in company SSO's words. */
  const idpFailure = (error: unknown): unknown => (error instanceof AppError && error.code === 'social.provider_unavailable' ? new AppError('sso.idp_unavailable') : error);

  const ssoWay: WayIn<{ user: UserRow }> = {
    async identify(input) {
      return input.user;
    },
    async verify(user) {
      return { user: user!, amr: ['sso'] };
    },
  };

  async function signInAs(connection: ConnectionRow, identity: AssertedIdentity, origin: RequestOrigin): Promise<SignInResult> {
    return deps.signIn.run(ssoWay, { user: await accountFor(connection, identity) }, origin);
  }

  function readStarted(sealed: string | undefined, state: string): StartedSignIn {
    const started = openSealed<StartedSignIn>(sealed);
    if (!started?.state || !safeEqual(started.state, state)) throw new AppError('sso.state_invalid');
    return started;
  }

  function samlProvider(connection: ConnectionRow) {
    const urls = samlUrls(connection.identifier);
    return createSamlServiceProvider({
      ...urls,
      idpEntityId: connection.samlEntityId!,
      idpSsoUrl: connection.samlSsoUrl!,
      idpCertificates: connection.samlCertificates ?? [],
      clock,
    });
  }

  return {
    /**
     * /login/sso: the identifier (or an email of a verified domain) → the IdP's URL. Counted per
     * address whatever the answer, in one atomic step. OpenID Connect binds state, nonce and PKCE
     * to the browser in a sealed cookie; SAML stores the AuthnRequest's id for its InResponseTo and
     * seals it in the same cookie, so only this browser takes the handoff code.
     */
    async start(input: { identifier: string }, origin: RequestOrigin): Promise<{ url: string; protocol: 'oidc' | 'saml'; cookie?: string }> {
      rateLimited(await deps.limiter.consume(rateKey(limits.companySsoStartPerIp, origin.limitAddress), limits.companySsoStartPerIp));
      const value = input.identifier.trim().toLowerCase();
      let connection: ConnectionRow | undefined;
      if (value.includes('@')) {
        const domain = normalizeDomain(value.slice(value.lastIndexOf('@') + 1));
        connection = domain ? await queries.connectionByVerifiedDomain(domain) : undefined;
      } else {
        const identifier = normalizeIdentifier(value);
        connection = identifier ? await queries.connectionByIdentifier(identifier) : undefined;
      }
      if (!connection) throw new AppError('sso.identifier_invalid');
      const expiresAt = clock.now().getTime() + START_TTL_SECONDS * 1000;
      if (connection.kind === 'saml') {
        const id = `_${randomToken(20)}`;
        await queries.insertRequest({ id, organizationId: connection.organizationId, brand: origin.brand, expiresAt: new Date(expiresAt) });
        const samlStarted: StartedSamlSignIn = { samlRequestId: id, expiresAt };
        return { url: await samlProvider(connection).authorizeUrl(id), protocol: 'saml', cookie: secrets.seal(JSON.stringify(samlStarted)) };
      }
      const started: StartedSignIn = { organizationId: connection.organizationId, state: generateState(), codeVerifier: generateCodeVerifier(), nonce: randomToken(16), expiresAt };
      try {
        const url = await relyingParty(connection).authorizationUrl(started, redirectUri(origin.brand));
        return { url: url.toString(), protocol: 'oidc', cookie: secrets.seal(JSON.stringify(started)) };
      } catch (error) {
        throw idpFailure(error);
      }
    },

    /** /sso/redirect: an OpenID Connect code (with the sealed cookie) or a SAML handoff code. */
    async finish(input: CompanySsoFinishRequest, sealed: string | undefined, origin: RequestOrigin): Promise<SignInResult> {
      if ('handoff' in input) {
        // Only the browser that started this SAML sign-in takes its code (a code sent elsewhere stays unused).
        const started = openSealed<StartedSamlSignIn>(sealed);
        if (!started?.samlRequestId) throw new AppError('sso.state_invalid');
        const answered = await queries.takeHandoff(sha256(input.handoff), started.samlRequestId, clock.now());
        if (!answered?.subject) throw new AppError('sso.state_invalid');
        const connection = await queries.connectionOf(answered.organizationId);
        if (!connection) throw new AppError('sso.state_invalid');
        return signInAs(connection, { subject: answered.subject, email: answered.email, name: answered.fullName ?? '' }, origin);
      }
      const started = readStarted(sealed, input.state);
      const connection = await queries.connectionOf(started.organizationId);
      if (connection?.kind !== 'oidc') throw new AppError('sso.state_invalid');
      let identity: AssertedIdentity;
      try {
        const claims = await relyingParty(connection).claims(input, started, redirectUri(origin.brand));
        const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
        identity = { subject: claims.sub, email: text(claims.email), name: text(claims.name) ?? [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') };
      } catch (error) {
        throw idpFailure(error);
      }
      return signInAs(connection, identity, origin);
    },

    /**
     * The SAML ACS: the IdP's POSTed response, validated (signed assertion, audience, recipient,
     * InResponseTo, time), uses its request up and answers where to send the browser:
     * /sso/redirect with a one-time handoff code, or with the refusal's error code.
     */
    async acs(identifierParam: string, body: { SAMLResponse?: unknown }, origin: RequestOrigin): Promise<string> {
      const fail = (code: string) => `${config.PLATFORM_ORIGIN}/sso/redirect?${new URLSearchParams({ error: code }).toString()}`;
      const limit = await deps.limiter.consume(rateKey(limits.companySsoAcsPerIp, origin.limitAddress), limits.companySsoAcsPerIp);
      if (!limit.allowed) return fail('rate_limited');
      const identifier = normalizeIdentifier(identifierParam);
      const connection = identifier ? await queries.connectionByIdentifier(identifier) : undefined;
      if (connection?.kind !== 'saml') return fail('sso.identifier_invalid');
      const response = typeof body.SAMLResponse === 'string' && body.SAMLResponse.length <= 512_000 ? body.SAMLResponse : '';
      let asserted: SamlIdentity;
      try {
        asserted = await samlProvider(connection).validate(response, async (id) => {
          const request = await queries.liveRequest(id, clock.now());
          return request?.organizationId === connection.organizationId ? request.createdAt : null;
        });
      } catch (error) {
        if (!(error instanceof SamlRefusal)) throw error;
        deps.log.warn({ organization: connection.organizationId, reason: error.message }, 'SAML response refused');
        return fail('sso.response_invalid');
      }
      const handoff = randomToken(24);
      const now = clock.now();
      const request = await queries.answerRequest(
        asserted.inResponseTo,
        connection.organizationId,
        { subject: asserted.subject, email: asserted.email, fullName: asserted.name.slice(0, 100), handoffHash: sha256(handoff), handoffExpiresAt: new Date(now.getTime() + HANDOFF_TTL_SECONDS * 1000) },
        now,
      );
      // Used already: a replayed response.
      if (!request) return fail('sso.response_invalid');
      const target = new URL(`${originFor(config, request.brand === 'locker' ? 'locker' : 'platform')}/sso/redirect`);
      target.searchParams.set('handoff', handoff);
      return target.toString();
    },
  };
}

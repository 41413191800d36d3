import { randomUUID } from 'node:crypto';
import { SSO_IDENTIFIER_PATTERN, type CompanySsoFinishRequest } from '@portal/contracts';
import { generateCodeVerifier, generateState } from 'arctic';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { inOneTransaction } from '../../db/scoped-transaction';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { randomToken, safeEqual, sha256 } from '../../platform/crypto';
import type { DataProtection } from '../../platform/data-protection';
import { egressFetch, egressPolicyFor, type EgressPolicy } from '../../platform/egress';
import { AppError } from '../../platform/errors';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { record } from '../audit';
import type { WayIn } from '../auth';
import { openIdRelyingParty, type AuthorizationSecrets } from '../federation';
import { administeredOrganizations, organizationOfMember, type OrganizationRow } from '../organizations';
import type { SignInResult } from '../sessions';
import { createUserService, type UserRow } from '../users';
import { dnsTxtLookup, normalizeDomain, TXT_PREFIX, type TxtLookup } from './domains';
import { companySsoQueries, type ConnectionRow } from './queries';
import { claimRefusal } from './claimable';
import { checkIssuer, CLIENT_SECRET_LENGTH, companySsoSettings, DOMAIN_PROOF_PURPOSE, issuerAddressRefused, proveByDns } from './settings';
import { createOneTimeTokens } from '../../platform/one-time-tokens';
import type { Mailer } from '../../platform/mail';
import { createSamlServiceProvider, parseIdpMetadata, SamlRefusal, type SamlIdentity } from './saml';

/** How long a started sign-in (OIDC cookie, SAML request) and a SAML handoff code live. */
const START_TTL_SECONDS = 10 * 60;
const HANDOFF_TTL_SECONDS = 2 * 60;

/** The cookie that binds a started OpenID Connect sign-in to this browser: state, PKCE verifier and nonce, sealed. */
export const SSO_STATE_COOKIE = 'portal_sso';
export const SSO_STATE_MAX_AGE = START_TTL_SECONDS;

interface StartedSignIn extends AuthorizationSecrets {
  organizationId: string;
  expiresAt: number;
}

/** A started SAML sign-in, sealed in the same cookie: its handoff code is taken only in this browser. */
interface StartedSamlSignIn {
  samlRequestId: string;
  expiresAt: number;
}

/** How long a link an existing account's owner must confirm waits in their browser. */
const PENDING_LINK_TTL_SECONDS = 15 * 60;
/** The cookie that keeps that link (sealed) until its owner has signed in and confirms it. */
export const SSO_LINK_COOKIE = 'portal_sso_link';
export const SSO_LINK_MAX_AGE = PENDING_LINK_TTL_SECONDS;

interface PendingLink {
  organizationId: string;
  organizationName: string;
  subject: string;
  email: string;
  expiresAt: number;
}

/**
 * The identity provider named the email of an existing account that is not the organization's
 * member: nothing is linked or joined. `sealed` (the pending link) goes to this browser's cookie
 * only, never in the answer; the account's owner signs in their own way and confirms.
 */
export class LinkRequired extends AppError {
  declare readonly sealed: string;
  constructor(sealed: string, email: string, organization: string) {
    super('sso.link_required', { email, organization }, { email, organization });
    // Not enumerable: an error logged or serialised anywhere never carries the pending link.
    Object.defineProperty(this, 'sealed', { value: sealed, enumerable: false });
  }
}

/** Who the organization's identity provider says signed in. */
interface AssertedIdentity {
  subject: string;
  email: string | null;
  name: string;
}

/** A refusal of an operator command: its message is printed as is. */
export class CompanySsoAdminError extends Error {
  override readonly name = 'CompanySsoAdminError';
}

/** What company SSO asks of the organizations module (bound in app.ts and the CLI). */
export interface Organizations {
  resolve(nameOrEmail: string | undefined): Promise<OrganizationRow>;
  membershipOf(email: string): Promise<OrganizationRow | undefined>;
  /** The organization's name (for the link page), or undefined when it is gone. */
  nameOf(organizationId: string): Promise<string | undefined>;
  /**
   * Adds a member; `via: 'sso'` records the just-in-time membership in the audit log. Called
   * inside a transaction of the (transaction-scoped) database, its row and audit entry join it.
   */
  addMember(organizationId: string, email: string, userId: string | null, via: 'sso'): Promise<boolean>;
}

export interface CompanySsoDependencies {
  config: Config;
  /** Transaction-scoped (app.ts): a new person's account, link and membership commit together, the organizations module's writes included. */
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  secrets: DataProtection;
  organizations: Organizations;
  log: { warn(object: unknown, message: string): void; error?(object: unknown, message: string): void };
  /** Mails the domain proofs (the settings page's alternative to the TXT record). */
  mailer?: Mailer;
  /** The sign-in pipeline (auth module): company SSO ends like every other way in. */
  signIn: { run<Input>(way: WayIn<Input>, input: Input, origin: RequestOrigin): Promise<SignInResult> };
  /** DNS TXT lookups (tests may pass their own; by default COMPANY_SSO_DNS_SERVER or the system's). */
  txtLookup?: TxtLookup;
  /** The rule for requests to the issuers organizations set; by default the configuration's (egressPolicyFor). */
  egress?: EgressPolicy;
}

export type CompanySsoService = ReturnType<typeof createCompanySsoService>;

/** An SSO identifier as stored (lower-cased), or null when it does not have the form. */
export function normalizeIdentifier(value: string | undefined): string | null {
  const identifier = value?.trim().toLowerCase() ?? '';
  return SSO_IDENTIFIER_PATTERN.test(identifier) && identifier.length <= 63 ? identifier : null;
}

/**
 * Company SSO: an organization's identity provider (OpenID Connect or SAML 2.0), found by the
 * organization's SSO identifier or an email of a domain it verified. A returning member is
 * signed in by the IdP's subject while still a member; anyone else by email only when this
 * organization verified the email's domain (its IdP speaks for that domain, and no other): a
 * member's existing account is linked; a new person gets an active account, its link and the
 * membership at once; any other existing account is left alone until its owner signs in and
 * confirms the link. Every sign-in ends in the one pipeline.
 */
export function createCompanySsoService(deps: CompanySsoDependencies) {
  const { config, clock, secrets } = deps;
  const queries = companySsoQueries(deps.db);
  const users = createUserService(deps.db);
  const txtLookup = deps.txtLookup ?? dnsTxtLookup(config.COMPANY_SSO_DNS_SERVER);
  const egress = deps.egress ?? egressPolicyFor(config);

  const redirectUri = (brand: RequestOrigin['brand']) => `${originFor(config, brand)}/sso/redirect`;
  /** SAML's service-provider addresses of an identifier: the IdP posts to the platform origin's ACS. */
  const samlUrls = (identifier: string) => ({
    entityId: `${config.PLATFORM_ORIGIN}/v3/_auth/sso/saml/${identifier}`,
    acsUrl: `${config.PLATFORM_ORIGIN}/v3/_auth/sso/saml/${identifier}/acs`,
  });

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

  /** The email an IdP names, lower-cased, when its organization proved the domain (and may claim it at all). */
  async function vouchedEmail(organizationId: string, asserted: string | null): Promise<string> {
    const email = asserted?.trim().toLowerCase();
    if (!email || !email.includes('@')) throw new AppError('sso.email_missing');
    const domain = email.slice(email.lastIndexOf('@') + 1);
    // The IdP speaks only for the domains its organization proved it controls (never a free-mail domain or a public suffix, even one proved before they were refused).
    if (claimRefusal(domain) || !(await queries.verifiedBy(organizationId, domain))) throw new AppError('sso.domain_not_verified', { email }, { email });
    const membership = await deps.organizations.membershipOf(email);
    if (membership && membership.id !== organizationId) throw new AppError('sso.member_elsewhere', { email }, { email });
    return email;
  }

  /** Links the IdP's subject to the account; a subject linked to another account meanwhile is refused. */
  async function linkSubject(organizationId: string, subject: string, user: { id: string }, email: string): Promise<void> {
    const now = clock.now();
    if (await queries.link({ organizationId, subject, userId: user.id, email, linkedAt: now, lastUsedAt: now })) return;
    const again = await queries.findIdentity(organizationId, subject);
    if (again?.userId !== user.id) throw new AppError('sso.account_unverified', { email }, { email });
  }

  /**
   * Links the subject and makes the account a member, in one transaction (the caller's, when it
   * runs in one): a link is never written without the membership. "Linked, not a member" is how
   * a person removed from the organization reads, refused for good, so a failure between the two
   * must leave neither. Joined another organization meanwhile: refused, nothing linked.
   */
  async function linkAsMember(organizationId: string, subject: string, user: { id: string }, email: string): Promise<void> {
    await inOneTransaction(deps.db, async () => {
      await linkSubject(organizationId, subject, user, email);
      if (await queries.isMember(organizationId, user.id, email)) return;
      if (!(await deps.organizations.addMember(organizationId, email, user.id, 'sso'))) throw new AppError('sso.member_elsewhere', { email }, { email });
    });
  }

  /**
   * The account an asserted identity signs in. By subject only while the person is still a
   * member of this organization (a link without the membership is a person removed or gone:
   * never provisioned again); else by an email of a domain this organization verified: a
   * member's existing account is linked, a new person gets an account, its link and the
   * membership (just in time, together); an existing account of anyone else is never signed in,
   * linked or joined by the IdP (its owner signs in their own way and confirms: LinkRequired).
   */
  async function accountFor(connection: ConnectionRow, identity: AssertedIdentity): Promise<UserRow> {
    const now = clock.now();
    const organizationId = connection.organizationId;
    const linked = await queries.findIdentity(organizationId, identity.subject);
    if (linked) {
      const user = await users.findById(linked.userId);
      if (!user || user.purgedAt) throw new AppError('1002');
      // Removed or left: the organization's IdP no longer speaks for them, from that moment.
      if (!(await queries.isMember(organizationId, user.id, user.email))) throw new AppError('sso.not_member');
      await queries.touch(organizationId, identity.subject, now);
      return user;
    }
    const email = await vouchedEmail(organizationId, identity.email);
    const existing = await users.findByEmail(email);
    if (existing) {
      // Nobody proved this mailbox: a stranger may have registered the address first.
      if (!existing.activatedAt || existing.purgedAt) throw new AppError('sso.account_unverified', { email }, { email });
      if (!(await queries.isMember(organizationId, existing.id, existing.email))) {
        const organizationName = (await deps.organizations.nameOf(organizationId)) ?? '';
        const pending: PendingLink = { organizationId, organizationName, subject: identity.subject, email, expiresAt: now.getTime() + PENDING_LINK_TTL_SECONDS * 1000 };
        throw new LinkRequired(secrets.seal(JSON.stringify(pending)), email, organizationName);
      }
      await linkSubject(organizationId, identity.subject, existing, email);
      return existing;
    }
    const id = randomUUID();
    const name = identity.name.trim().slice(0, 100) || email.split('@')[0]!;
    const language = 'en';
    // The account, its link and the membership commit together, before the sign-in: a failure
    // anywhere (here or in the sign-in after) never leaves the account linked without the
    // membership, and a parallel sign-in (another tab) sees all three or none.
    await inOneTransaction(deps.db, async () => {
      if (!(await users.insert({ id, email, fullName: name, passwordHash: null, language, customerLanguage: language, activatedAt: now, createdAt: now, updatedAt: now }))) return;
      await linkAsMember(organizationId, identity.subject, { id }, email);
    });
    const user = await users.findByEmail(email);
    if (!user?.activatedAt) throw new AppError('sso.account_unverified', { email }, { email });
    // Made meanwhile: by a parallel sign-in of this same subject (a second tab) it is theirs, linked and a member; by anyone else, not ours to provision.
    if (user.id !== id && (await queries.findIdentity(organizationId, identity.subject))?.userId !== user.id) throw new AppError('sso.account_unverified', { email }, { email });
    return user;
  }

  async function signInAs(connection: ConnectionRow, identity: AssertedIdentity, origin: RequestOrigin): Promise<SignInResult> {
    return deps.signIn.run(ssoWay, { user: await accountFor(connection, identity) }, origin);
  }

  function openSealed<T extends { expiresAt: number }>(sealed: string | undefined): T | undefined {
    try {
      const value = sealed && secrets.isSealed(sealed) ? (JSON.parse(secrets.open(sealed)) as T) : undefined;
      return value && value.expiresAt >= clock.now().getTime() ? value : undefined;
    } catch {
      return undefined;
    }
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

  /** The addresses to register at the IdP for this identifier. */
  const registrationUrls = (identifier: string) => ({ oidcRedirectUris: [redirectUri('platform'), redirectUri('locker')], ...samlUrls(identifier) });

  /**
   * The organization whose SSO settings this person may see and change: the one they are a
   * member of, as its owner or admin (or its creator, for organizations made before roles).
   */
  async function administeredBy(user: { id: string; email: string }): Promise<{ id: string; name: string }> {
    const administered = await administeredOrganizations(deps.db, user.id, user.email);
    const memberOf = await organizationOfMember(deps.db, user.email);
    const organization = administered.find((item) => item.id === memberOf) ?? administered[0];
    if (organization) return organization;
    throw new AppError(memberOf ? 'organizations.forbidden' : 'organizations.not_member');
  }

  /** The link this browser holds, for the signed-in account it names (anyone else's is refused). */
  function pendingLinkFor(user: { email: string }, sealed: string | undefined): PendingLink {
    const pending = openSealed<PendingLink>(sealed);
    if (!pending?.subject) throw new AppError('sso.link_invalid');
    if (pending.email !== user.email.trim().toLowerCase()) throw new AppError('sso.link_other_account', { email: pending.email }, { email: pending.email });
    return pending;
  }

  return {
    samlUrls,
    registrationUrls,
    administeredBy,

    /** What the link page shows: the organization whose IdP named this account's email. */
    pendingLink(user: { email: string }, sealed: string | undefined) {
      const pending = pendingLinkFor(user, sealed);
      return { organization_name: pending.organizationName, email: pending.email };
    },

    /**
     * The account's owner, signed in their own way (recently), confirms the link: the IdP's
     * subject is linked to their account and they join the organization. The organization's
     * claim on the domain and the one-organization rule are checked again now.
     */
    async confirmLink(user: UserRow, sealed: string | undefined) {
      const pending = pendingLinkFor(user, sealed);
      if (!(await queries.connectionOf(pending.organizationId))) throw new AppError('sso.link_invalid');
      const email = await vouchedEmail(pending.organizationId, pending.email);
      await linkAsMember(pending.organizationId, pending.subject, user, email);
      return { organization_name: pending.organizationName, email };
    },
    /** The settings screen's reads and changes, for an organization `administeredBy` answered. */
    settings: companySsoSettings({
      queries,
      secrets,
      clock,
      txtLookup,
      egress,
      normalizeIdentifier,
      registrationUrls,
      tokens: createOneTimeTokens<typeof DOMAIN_PROOF_PURPOSE>({ db: deps.db, clock, limiter: deps.limiter }),
      mailer: deps.mailer,
      limiter: deps.limiter,
      log: { error: (object, message) => (deps.log.error ?? deps.log.warn).call(deps.log, object, message) },
      // Each change goes to the organization's audit log; a failed entry is logged, the change stays (as membership changes).
      onChanged: async (change) => {
        try {
          await record({ db: deps.db, clock }, { organizationId: change.organizationId, action: change.action, actor: { userId: change.actor.id ?? null, email: change.actor.email }, origin: change.actor.origin ?? null, detail: change.detail });
        } catch {
          (deps.log.error ?? deps.log.warn).call(deps.log, { audit: { action: change.action } }, 'organization audit event not recorded');
        }
      },
    }),

    // ----- Operator configuration (npm run organizations -- sso ... / domain ...) -----

    /** `sso <org> --identifier <id> --oidc-issuer <url> --client-id <id>` with the secret. */
    async configureOidc(input: { organization: string | undefined; identifier: string | undefined; issuer: string | undefined; clientId: string | undefined; clientSecret: string | undefined }) {
      const organization = await deps.organizations.resolve(input.organization);
      const identifier = normalizeIdentifier(input.identifier);
      if (!identifier) throw new CompanySsoAdminError('--identifier must be 1 to 63 letters, digits or dashes (not starting or ending with a dash)');
      const issuer = checkIssuer(input.issuer, egress);
      if ('problem' in issuer) {
        const problems = { invalid: 'an absolute https URL', scheme: 'an https URL (http only on loopback, outside production)', plain: 'a plain issuer URL' } as const;
        throw new CompanySsoAdminError(`--oidc-issuer must be ${problems[issuer.problem]}`);
      }
      if (await issuerAddressRefused(issuer.issuer, egress)) throw new CompanySsoAdminError('--oidc-issuer must be a public address (not loopback in production, private, link-local or cloud metadata)');
      const clientId = input.clientId?.trim() ?? '';
      if (!clientId || clientId.length > 255) throw new CompanySsoAdminError('--client-id is required');
      const clientSecret = input.clientSecret ?? '';
      if (clientSecret.length < CLIENT_SECRET_LENGTH.min || clientSecret.length > CLIENT_SECRET_LENGTH.max) throw new CompanySsoAdminError('the client secret is required (8 to 1024 characters)');
      const saved = await queries.upsertConnection(
        organization.id,
        { identifier, kind: 'oidc', oidcIssuer: issuer.issuer, oidcClientId: clientId, oidcClientSecret: secrets.seal(clientSecret), samlEntityId: null, samlSsoUrl: null, samlCertificates: null },
        clock.now(),
      );
      if (saved === 'identifier_taken') throw new CompanySsoAdminError(`the SSO identifier ${identifier} is taken`);
      return { organization, connection: saved };
    },

    /** `sso <org> --identifier <id> --saml-metadata <file>`: the IdP's entity id, SSO URL and signing certificates from its metadata. */
    async configureSaml(input: { organization: string | undefined; identifier: string | undefined; metadataXml: string }) {
      const organization = await deps.organizations.resolve(input.organization);
      const identifier = normalizeIdentifier(input.identifier);
      if (!identifier) throw new CompanySsoAdminError('--identifier must be 1 to 63 letters, digits or dashes (not starting or ending with a dash)');
      const metadata = parseIdpMetadata(input.metadataXml);
      if (typeof metadata === 'string') throw new CompanySsoAdminError(`the IdP metadata: ${metadata}`);
      const saved = await queries.upsertConnection(
        organization.id,
        { identifier, kind: 'saml', oidcIssuer: null, oidcClientId: null, oidcClientSecret: null, samlEntityId: metadata.entityId, samlSsoUrl: metadata.ssoUrl, samlCertificates: metadata.certificates },
        clock.now(),
      );
      if (saved === 'identifier_taken') throw new CompanySsoAdminError(`the SSO identifier ${identifier} is taken`);
      return { organization, connection: saved };
    },

    /** `sso <org> --require-sso on|off` */
    async setRequireSso(input: { organization: string | undefined; requireSso: boolean }) {
      const organization = await deps.organizations.resolve(input.organization);
      if (!(await queries.setRequireSso(organization.id, input.requireSso, clock.now()))) throw new CompanySsoAdminError(`${organization.name} has no SSO connection yet: configure one first`);
      return organization;
    },

    /** `domain add <org> <domain>`: the claim and the TXT record that proves it. */
    async addDomain(input: { organization: string | undefined; domain: string | undefined }) {
      const organization = await deps.organizations.resolve(input.organization);
      const domain = normalizeDomain(input.domain);
      if (!domain) throw new CompanySsoAdminError('the domain must be a DNS name such as example.com');
      if (claimRefusal(domain)) throw new CompanySsoAdminError(`${domain} cannot be claimed: it is a public suffix or a free-mail domain`);
      const row = await queries.claimDomain(organization.id, domain, randomToken(24), clock.now());
      return { organization, domain: row, record: `${TXT_PREFIX}${row.dnsToken}` };
    },

    /** `domain verify <org> <domain>`: looks the TXT record up; verified for this organization unless another verified it first. */
    async verifyDomain(input: { organization: string | undefined; domain: string | undefined }) {
      const organization = await deps.organizations.resolve(input.organization);
      const domain = normalizeDomain(input.domain);
      if (!domain) throw new CompanySsoAdminError('the domain must be a DNS name such as example.com');
      if (claimRefusal(domain)) throw new CompanySsoAdminError(`${domain} cannot be claimed: it is a public suffix or a free-mail domain`);
      const proof = await proveByDns(queries, txtLookup, clock, organization.id, domain);
      if (proof.status === 'verified') return { organization, domain: proof.domain };
      if (proof.status === 'not_claimed') throw new CompanySsoAdminError(`${organization.name} has not claimed ${domain}: run domain add first`);
      if (proof.status === 'lookup_failed') throw new CompanySsoAdminError(`the DNS lookup of ${domain} failed (${proof.code}); try again later`);
      if (proof.status === 'missing') throw new CompanySsoAdminError(`no TXT record ${TXT_PREFIX}${(await queries.domain(organization.id, domain))!.dnsToken} found on ${domain}`);
      throw new CompanySsoAdminError(`${domain} is verified by another organization`);
    },

    async domains(input: { organization: string | undefined }) {
      const organization = await deps.organizations.resolve(input.organization);
      return { organization, domains: await queries.domainsOf(organization.id), connection: await queries.connectionOf(organization.id) };
    },

    // ----- The operators' console (modules/organizations/admin-routes.ts) -----

    /** An organization's domains and SSO connection as operators see them (the client secret never leaves). */
    async operatorView(organizationId: string) {
      const [domains, connection] = await Promise.all([queries.domainsOf(organizationId), queries.connectionOf(organizationId)]);
      return {
        domains: domains.map((row) => ({ domain: row.domain, verified_at: row.verifiedAt?.toISOString() ?? null, verified_by: row.verifiedBy, claimed_at: row.createdAt.toISOString() })),
        connection: connection ? {
          kind: connection.kind,
          identifier: connection.identifier,
          idp: connection.kind === 'oidc' ? connection.oidcIssuer : connection.samlEntityId,
          require_sso: connection.requireSso,
          updated_at: connection.updatedAt.toISOString(),
        } : null,
      };
    },

    /**
     * An operator verifies a claimed domain by hand (their reason is in the operator audit log):
     * free-mail domains and public suffixes are still refused, and a domain another organization
     * verified stays theirs (the partial unique index decides).
     */
    async verifyDomainByOperator(organizationId: string, value: string) {
      const domain = normalizeDomain(value);
      if (!domain) throw new AppError('sso.domain_not_found', { domain: value }, { domain: value });
      const refusal = claimRefusal(domain);
      if (refusal) throw new AppError(refusal, { domain }, { domain });
      const claim = await queries.domain(organizationId, domain);
      if (!claim) throw new AppError('sso.domain_not_found', { domain }, { domain });
      if (!claim.verifiedAt && !(await queries.markVerified(organizationId, domain, 'operator', clock.now()))) throw new AppError('sso.domain_taken', { domain }, { domain });
      const row = (await queries.domain(organizationId, domain))!;
      return { domain: row.domain, verified_at: row.verifiedAt?.toISOString() ?? null, verified_by: row.verifiedBy, claimed_at: row.createdAt.toISOString() };
    },

    // ----- Signing in -----

    /** The account's organization, and whether it requires SSO (then a password or email code may not sign it in). */
    membershipOf: (user: UserRow) => queries.membershipOf(user.email),

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

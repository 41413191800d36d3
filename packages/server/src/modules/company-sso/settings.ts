import { domainProofAddresses, DOMAIN_PROOF_VALID_MINUTES, type AuditAction, type CompanySsoDomain, type CompanySsoProviderRequest, type CompanySsoSettings } from '@portal/contracts';
import { sendInBackground, type Mailer } from '../../platform/mail';
import type { OneTimeTokens } from '../../platform/one-time-tokens';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { domainProofMail } from './mail';
import type { Clock } from '../../platform/clock';
import { randomToken } from '../../platform/crypto';
import type { DataProtection } from '../../platform/data-protection';
import { checkEgressTarget, checkEgressUrl, egressFieldError, type EgressPolicy } from '../../platform/egress';
import { AppError, fieldError } from '../../platform/errors';
import { signedInThroughSso, ssoSinceJoining } from '../sessions';
import { claimRefusal } from './claimable';
import { normalizeDomain, TXT_PREFIX, type TxtLookup } from './domains';
import type { CompanySsoQueries, DomainRow } from './queries';
import { parseIdpMetadata } from './saml';

/** An SSO identifier as stored (lower-cased), or null when it does not have the form. */
export type IdentifierCheck = (value: string | undefined) => string | null;

/**
 * The issuer as stored (no trailing slash), or why it cannot be one: not a URL, not https (http
 * only to loopback where the egress policy allows it: never in production), not plain. Its
 * addresses are checked apart (issuerAddressRefused), after resolution.
 */
export function checkIssuer(raw: string | undefined, egress: EgressPolicy): { issuer: string } | { problem: 'invalid' | 'scheme' | 'plain' } {
  let issuer: URL;
  try {
    issuer = new URL(raw?.trim() ?? '');
  } catch {
    return { problem: 'invalid' };
  }
  const problem = checkEgressUrl(issuer, egress);
  if (problem === 'invalid' || problem === 'scheme') return { problem };
  if (issuer.username || issuer.password || issuer.search || issuer.hash) return { problem: 'plain' };
  return { issuer: issuer.href.replace(/\/$/, '') };
}

/** Whether the issuer's host is (or resolves now to) an address the egress guard refuses: loopback in production, private, link-local, metadata. */
export async function issuerAddressRefused(issuer: string, egress: EgressPolicy): Promise<boolean> {
  return (await checkEgressTarget(issuer, egress)) === 'address';
}

export const CLIENT_SECRET_LENGTH = { min: 8, max: 1024 } as const;

/** What proving a domain by its TXT record came to. */
export type DnsProof = { status: 'verified'; domain: DomainRow } | { status: 'not_claimed' | 'missing' | 'taken' } | { status: 'lookup_failed'; code: string };

/** Looks the claim's TXT record up and marks it verified for this organization unless another verified the domain first. */
export async function proveByDns(queries: CompanySsoQueries, txtLookup: TxtLookup, clock: Clock, organizationId: string, domain: string): Promise<DnsProof> {
  const claim = await queries.domain(organizationId, domain);
  if (!claim) return { status: 'not_claimed' };
  if (claim.verifiedAt) return { status: 'verified', domain: claim };
  let records: string[];
  try {
    records = await txtLookup(domain);
  } catch (error) {
    return { status: 'lookup_failed', code: (error as { code?: string }).code ?? 'error' };
  }
  if (!records.some((record) => record.trim() === `${TXT_PREFIX}${claim.dnsToken}`)) return { status: 'missing' };
  if (!(await queries.markVerified(organizationId, domain, 'dns', clock.now()))) return { status: 'taken' };
  return { status: 'verified', domain: (await queries.domain(organizationId, domain))! };
}

export const toDomainDto = (row: DomainRow): CompanySsoDomain => ({
  domain: row.domain,
  verified: row.verifiedAt !== null,
  verified_at: row.verifiedAt?.toISOString() ?? null,
  verified_by: row.verifiedBy,
  txt_record: `${TXT_PREFIX}${row.dnsToken}`,
});

export interface SettingsDependencies {
  queries: CompanySsoQueries;
  secrets: DataProtection;
  clock: Clock;
  txtLookup: TxtLookup;
  /** The rule for URLs the server will request (the OIDC issuer). */
  egress: EgressPolicy;
  normalizeIdentifier: IdentifierCheck;
  registrationUrls(identifier: string): { oidcRedirectUris: string[]; entityId: string; acsUrl: string };
  /** The mailed domain proof: codes (hashed, expiring, 5 guesses), the mailer and its limit. */
  tokens: OneTimeTokens<typeof DOMAIN_PROOF_PURPOSE>;
  /** Absent in the operator command (it mails nothing). */
  mailer?: Mailer;
  limiter: RateLimiter;
  log: { error(object: unknown, message: string): void };
  /** Ends the sessions of the organization's members that its IdP did not sign in (service.ts): SSO is now required of them. */
  endSessionsWithoutSso(organizationId: string): Promise<number>;
  /** Every change of the settings, for the organization's audit log (bound in service.ts). Never throws. */
  onChanged?: (change: SsoSettingsChange) => Promise<void>;
}

/** The admin who changed a setting: the signed-in account, and where from (for the audit log). */
export type SettingsActor = {
  id?: string;
  email: string;
  origin?: { ip?: string | null; userAgent?: string | null };
  /** The session the change is asked on (the settings screen's; none for an operator's command). */
  session?: { amr: string[] | null; createdAt: Date };
};

/** One change of an organization's SSO settings, as its audit log records it. */
export interface SsoSettingsChange {
  organizationId: string;
  actor: SettingsActor;
  action: Extract<AuditAction, 'sso_provider_set' | 'sso_provider_changed' | 'sso_required_changed' | 'sso_domain_added' | 'sso_domain_verified' | 'sso_domain_removed'>;
  detail: Record<string, string | boolean>;
}

type Organization = { id: string; name: string };
/** The admin asking: the code is theirs (one pending proof at a time), mailed to the domain's address. */
type Requester = { id: string; email: string; fullName: string | null };

export const DOMAIN_PROOF_PURPOSE = 'sso_domain_proof';

/**
 * The organization's SSO settings screen (owners and admins; the routes check the role and the
 * recent proof of identity): the same rules as the operator command, answered as field errors.
 */
export function companySsoSettings(deps: SettingsDependencies) {
  const { queries, secrets, clock } = deps;
  const changed = async (organization: Organization, actor: SettingsActor, action: SsoSettingsChange['action'], detail: SsoSettingsChange['detail']) =>
    deps.onChanged?.({ organizationId: organization.id, actor, action, detail });
  /**
   * Whether the admin's session is one the requirement keeps: the organization's IdP signed it in
   * since they joined. Asked before requiring SSO from the settings screen, as GitHub asks for a
   * SAML sign-in first: it shows the IdP lets people in (a broken one would lock every member
   * out), and the admin stays signed in while everyone else's password sessions end.
   */
  const signedInThroughIdp = async (organization: Organization, caller: SettingsActor, session: NonNullable<SettingsActor['session']>) => {
    const joinedAt = caller.id ? await queries.joinedAt(organization.id, caller.id, caller.email) : undefined;
    return joinedAt !== undefined && ssoSinceJoining({ viaSso: signedInThroughSso(session.amr), createdAt: session.createdAt }, joinedAt);
  };
  const domainOf = (value: string) => {
    const domain = normalizeDomain(value);
    if (!domain) throw fieldError('domain', 'sso.domain_invalid');
    return domain;
  };
  /** A domain an organization may claim and prove (removing an old claim takes any). */
  const claimableDomainOf = (value: string) => {
    const domain = domainOf(value);
    const refusal = claimRefusal(domain);
    if (refusal) throw fieldError('domain', refusal, { domain });
    return domain;
  };

  /** The organization's claim of a domain not verified yet. */
  async function pendingClaim(organization: Organization, domain: string) {
    const claim = await queries.domain(organization.id, domain);
    if (!claim) throw new AppError('sso.domain_not_found', { domain }, { domain });
    if (claim.verifiedAt) throw new AppError('sso.domain_verified_already', { domain }, { domain });
    return claim;
  }

  async function view(organization: Organization, caller: { email: string }): Promise<CompanySsoSettings> {
    const [connection, domains] = [await queries.connectionOf(organization.id), await queries.domainsOf(organization.id)];
    const urls = connection && deps.registrationUrls(connection.identifier);
    return {
      organization: { id: organization.id, name: organization.name },
      email: caller.email,
      identifier: connection?.identifier ?? null,
      protocol: connection?.kind ?? null,
      oidc:
        connection?.kind === 'oidc'
          ? { issuer: connection.oidcIssuer ?? '', client_id: connection.oidcClientId ?? '', has_client_secret: Boolean(connection.oidcClientSecret) }
          : null,
      saml: connection?.kind === 'saml' ? { entity_id: connection.samlEntityId ?? '', sso_url: connection.samlSsoUrl ?? '', certificates: connection.samlCertificates?.length ?? 0 } : null,
      require_sso: connection?.requireSso ?? false,
      registration: urls ? { oidc_redirect_uris: urls.oidcRedirectUris, saml_entity_id: urls.entityId, saml_acs_url: urls.acsUrl } : null,
      domains: domains.map(toDomainDto),
    };
  }

  return {
    view,

    /** The identifier and identity provider. An OpenID Connect secret left out keeps the stored one (write-only: never answered). */
    async setProvider(organization: Organization, caller: SettingsActor, input: CompanySsoProviderRequest): Promise<CompanySsoSettings> {
      const identifier = deps.normalizeIdentifier(input.identifier);
      if (!identifier) throw fieldError('identifier', 'sso.identifier_format');
      const current = await queries.connectionOf(organization.id);
      let settings;
      if (input.protocol === 'oidc') {
        const issuer = checkIssuer(input.issuer, deps.egress);
        if ('problem' in issuer) throw fieldError('issuer', 'sso.issuer_invalid');
        if (await issuerAddressRefused(issuer.issuer, deps.egress)) throw egressFieldError('issuer', 'address');
        const clientId = input.client_id.trim();
        if (!clientId || clientId.length > 255) throw fieldError('client_id', 'sso.client_id_required');
        let sealed: string;
        const secret = input.client_secret ?? '';
        if (secret === '' && current?.kind === 'oidc' && current.oidcClientSecret) sealed = current.oidcClientSecret;
        else if (secret.length < CLIENT_SECRET_LENGTH.min || secret.length > CLIENT_SECRET_LENGTH.max) throw fieldError('client_secret', 'sso.client_secret_required');
        else sealed = secrets.seal(secret);
        settings = { identifier, kind: 'oidc' as const, oidcIssuer: issuer.issuer, oidcClientId: clientId, oidcClientSecret: sealed, samlEntityId: null, samlSsoUrl: null, samlCertificates: null };
      } else {
        const metadata = parseIdpMetadata(input.metadata_xml);
        if (typeof metadata === 'string') {
          const error = fieldError('metadata_xml', 'sso.metadata_invalid');
          // The exact reason, in English, for API users and the operator.
          (error.details as Record<string, unknown>).reason = metadata;
          throw error;
        }
        settings = { identifier, kind: 'saml' as const, oidcIssuer: null, oidcClientId: null, oidcClientSecret: null, samlEntityId: metadata.entityId, samlSsoUrl: metadata.ssoUrl, samlCertificates: metadata.certificates };
      }
      const saved = await queries.upsertConnection(organization.id, settings, clock.now());
      if (saved === 'identifier_taken') throw new AppError('sso.identifier_taken', { identifier }, { identifier, fields: { identifier: new AppError('sso.identifier_taken', { identifier }).message } });
      const detail: SsoSettingsChange['detail'] = { protocol: settings.kind, identifier };
      if (current) Object.assign(detail, { previous_protocol: current.kind, previous_identifier: current.identifier });
      await changed(organization, caller, current ? 'sso_provider_changed' : 'sso_provider_set', detail);
      return view(organization, caller);
    },

    async setRequireSso(organization: Organization, caller: SettingsActor, requireSso: boolean): Promise<CompanySsoSettings> {
      const before = (await queries.connectionOf(organization.id))?.requireSso;
      if (before === undefined) throw new AppError('sso.not_configured');
      if (requireSso && caller.session && !(await signedInThroughIdp(organization, caller, caller.session))) throw new AppError('sso.sign_in_first');
      if (!(await queries.setRequireSso(organization.id, requireSso, clock.now()))) throw new AppError('sso.not_configured');
      // Every time it is asked on, not only when it turns on: a session that a sign-in begun
      // before the change issued after the first sweep ends at the next.
      if (requireSso) await deps.endSessionsWithoutSso(organization.id);
      if (before !== requireSso) await changed(organization, caller, 'sso_required_changed', { require_sso: requireSso });
      return view(organization, caller);
    },

    /** Claims a domain (the existing claim, token kept, when there is one): the TXT record to publish. */
    async addDomain(organization: Organization, caller: SettingsActor, value: string): Promise<CompanySsoDomain> {
      const domain = claimableDomainOf(value);
      const known = await queries.domain(organization.id, domain);
      const claim = await queries.claimDomain(organization.id, domain, randomToken(24), clock.now());
      if (!known) await changed(organization, caller, 'sso_domain_added', { domain });
      return toDomainDto(claim);
    },

    async verifyDomain(organization: Organization, caller: SettingsActor, value: string): Promise<CompanySsoDomain> {
      const domain = claimableDomainOf(value);
      const before = await queries.domain(organization.id, domain);
      const proof = await proveByDns(queries, deps.txtLookup, clock, organization.id, domain);
      switch (proof.status) {
        case 'verified':
          if (!before?.verifiedAt) await changed(organization, caller, 'sso_domain_verified', { domain, method: 'dns' });
          return toDomainDto(proof.domain);
        case 'not_claimed':
          throw new AppError('sso.domain_not_found', { domain }, { domain });
        case 'missing':
          throw new AppError('sso.domain_record_missing', { domain }, { domain });
        case 'taken':
          throw new AppError('sso.domain_taken', { domain }, { domain });
        case 'lookup_failed':
          throw new AppError('sso.dns_unavailable', { domain }, { domain });
      }
    },

    /**
     * The mailed proof, the alternative to the TXT record: a one-time code to the role mailbox of
     * the domain the requester picks (admin@, administrator@, hostmaster@, postmaster@,
     * webmaster@), never the requester's own. Counted per organization in one atomic step.
     */
    async mailProof(organization: Organization, requester: Requester, value: string, address: string, origin: RequestOrigin): Promise<{ address: string; expires_at: string }> {
      if (!deps.mailer) throw new Error('no mailer here');
      const domain = claimableDomainOf(value);
      const to = address.trim().toLowerCase();
      if (!domainProofAddresses(domain).includes(to)) throw fieldError('address', 'sso.proof_address_invalid');
      await pendingClaim(organization, domain);
      rateLimited(await deps.limiter.consume(rateKey(limits.companySsoProofMailsPerOrganization, organization.id), limits.companySsoProofMailsPerOrganization));
      const code = await deps.tokens.issueCode(requester.id, DOMAIN_PROOF_PURPOSE, DOMAIN_PROOF_VALID_MINUTES * 60, { organizationId: organization.id, domain, address: to });
      const rendered = domainProofMail({ lang: origin.lang, brand: origin.brand, organization: organization.name, requester: requester.fullName?.trim() || requester.email, domain, code });
      sendInBackground(deps.mailer, deps.log, { to, ...rendered });
      return { address: to, expires_at: new Date(clock.now().getTime() + DOMAIN_PROOF_VALID_MINUTES * 60_000).toISOString() };
    },

    /** The mailed code: single use, expiring, 5 guesses (each taken in one statement); verifies the domain it was mailed for. */
    async confirmProof(organization: Organization, requester: Requester, value: string, code: string): Promise<CompanySsoDomain> {
      const domain = claimableDomainOf(value);
      await pendingClaim(organization, domain);
      const used = await deps.tokens.useCode(requester.id, DOMAIN_PROOF_PURPOSE, code.trim());
      const payload = used?.payload as { organizationId?: string; domain?: string } | null | undefined;
      if (!used || payload?.organizationId !== organization.id || payload.domain !== domain) throw fieldError('code', 'auth.code_invalid');
      if (!(await queries.markVerified(organization.id, domain, 'mail', clock.now()))) throw new AppError('sso.domain_taken', { domain }, { domain });
      await changed(organization, requester, 'sso_domain_verified', { domain, method: 'mail' });
      return toDomainDto((await queries.domain(organization.id, domain))!);
    },

    async removeDomain(organization: Organization, caller: SettingsActor, value: string): Promise<void> {
      const domain = domainOf(value);
      if (!(await queries.removeDomain(organization.id, domain))) throw new AppError('sso.domain_not_found', { domain }, { domain });
      await changed(organization, caller, 'sso_domain_removed', { domain });
    },
  };
}

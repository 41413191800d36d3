import { randomToken } from '../../platform/crypto';
import type { EgressPolicy } from '../../platform/egress';
import { AppError } from '../../platform/errors';
import { claimRefusal } from './claimable';
import type { CompanySsoDependencies } from './dependencies';
import { normalizeDomain, TXT_PREFIX, type TxtLookup } from './domains';
import { normalizeIdentifier } from './identifier';
import type { CompanySsoQueries } from './queries';
import { parseIdpMetadata } from './saml';
import { checkIssuer, CLIENT_SECRET_LENGTH, issuerAddressRefused, proveByDns } from './settings';

/** A refusal of an operator command: its message is printed as is. */
export class CompanySsoAdminError extends Error {
  override readonly name = 'CompanySsoAdminError';
}

/**
 * The operators' commands (npm run organizations -- sso ... / domain ...) and the operators'
 * console (modules/organizations/admin-routes.ts): an organization's IdP, require-SSO and domains.
 */
export function companySsoOperatorCommands(
  deps: Pick<CompanySsoDependencies, 'clock' | 'secrets' | 'organizations'>,
  queries: CompanySsoQueries,
  txtLookup: TxtLookup,
  egress: EgressPolicy,
  endSessionsWithoutSso: (organizationId: string) => Promise<number>,
) {
  const { clock, secrets } = deps;
  return {
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

    /** `sso <org> --require-sso on|off`: on ends the members' sessions its IdP did not sign in (how many: `sessionsEnded`), as the settings screen's does. */
    async setRequireSso(input: { organization: string | undefined; requireSso: boolean }) {
      const organization = await deps.organizations.resolve(input.organization);
      if (!(await queries.setRequireSso(organization.id, input.requireSso, clock.now()))) throw new CompanySsoAdminError(`${organization.name} has no SSO connection yet: configure one first`);
      return { organization, sessionsEnded: input.requireSso ? await endSessionsWithoutSso(organization.id) : 0 };
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
  };
}

/**
 * `npm run organizations` through a running server's admin API (PORTAL_URL + OPERATOR_API_KEY,
 * see admin-api.ts). The API reads organizations (search, one with its members, domains and SSO
 * connection) and verifies a domain by hand only with a recent proof of identity, which a key
 * cannot give; so `sso <org>` (showing the connection) goes through it, and every command that
 * changes an organization refuses and says where it can be done.
 */
import { parseArgs } from 'node:util';
import { adminOrganizationEndpoints, type AdminOrganization } from '@portal/contracts';
import { callAdmin, notInAdminApi, type AdminApi } from './admin-api';
import { UsageError, type ToolIo } from './run-tool';

/** The options of `sso` that change the connection (the database mode's, kept in step). */
const SSO_CHANGES = ['identifier', 'oidc-issuer', 'client-id', 'client-secret-file', 'saml-metadata', 'require-sso'] as const;

export async function organizationsViaApi(io: ToolIo, api: AdminApi, command: string, rest: string[]): Promise<number> {
  if (command === 'domain' && rest[0] === 'verify') {
    // The console's verification is an operator's word, with a recent sign-in; this command looks the TXT record up.
    throw new Error(
      'npm run organizations -- domain verify looks the TXT record up itself, which the admin API does not: run it on the database ' +
        '(unset PORTAL_URL and OPERATOR_API_KEY; with DATABASE_URL beside running servers, on PGlite once the server has stopped), ' +
        'or verify the domain by hand on the console\'s Organizations page, with a reason.',
    );
  }
  if (command !== 'sso') notInAdminApi(`npm run organizations -- ${command}`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: Object.fromEntries(SSO_CHANGES.map((name) => [name, { type: 'string' as const }])),
  });
  const changing = SSO_CHANGES.filter((name) => values[name] !== undefined);
  if (changing.length) notInAdminApi(`npm run organizations -- sso --${changing[0]}`);
  if (positionals.length !== 1) throw new UsageError('sso takes <organization name or admin email>');
  printSso(io, await organizationNamed(api, positionals[0]!));
  return 0;
}

/**
 * The organization the operator named as the database mode resolves it: by a member's email
 * (the one organization they are in), else by its whole name, case aside (refused when two share it).
 */
async function organizationNamed(api: AdminApi, named: string): Promise<AdminOrganization> {
  const value = named.trim();
  if (!value) throw new UsageError('name the organization (its name or its admin email)');
  // The search matches parts of names and member emails: each candidate is checked whole.
  const { organizations } = await callAdmin(api, adminOrganizationEndpoints.searchOrganizations, { query: { q: value } });
  if (value.includes('@')) {
    const email = value.toLowerCase();
    for (const candidate of organizations) {
      const full = await callAdmin(api, adminOrganizationEndpoints.getOrganization, { params: { id: candidate.id } });
      if (full.member_list.some((member) => member.email.toLowerCase() === email)) return full;
    }
    throw new Error(`${email} is not in any organization`);
  }
  const found = organizations.filter((candidate) => candidate.name.toLowerCase() === value.toLowerCase());
  if (found.length === 0) throw new Error(`no organization is named ${value}`);
  if (found.length > 1) throw new Error(`several organizations are named ${value}: name it by its admin email`);
  return callAdmin(api, adminOrganizationEndpoints.getOrganization, { params: { id: found[0]!.id } });
}

/** What `sso <org>` prints on the database, less the URLs to register (the server's configuration knows them; the console shows them). */
function printSso(io: ToolIo, organization: AdminOrganization): void {
  const connection = organization.sso_connection;
  if (!connection) {
    io.out(`${organization.name} has no SSO connection`);
  } else {
    const idp = connection.kind === 'oidc' ? `OpenID Connect (issuer ${connection.idp ?? 'unknown'})` : `SAML 2.0 (IdP ${connection.idp ?? 'unknown'})`;
    io.out(`SSO of ${organization.name}: identifier ${connection.identifier}, ${idp}, SSO ${connection.require_sso ? 'required' : 'optional'}`);
  }
  const domains = organization.domains.map((domain) => `${domain.domain} (${domain.verified_at ? `verified${domain.verified_by ? ` by ${domain.verified_by}` : ''}` : 'not verified'})`);
  io.out(`  domains: ${domains.join(', ') || 'none'}`);
}

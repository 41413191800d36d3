/**
 * Operator commands of organizations (enterprises), against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run organizations -- create <name> --admin <email>
 *       a new organization with its admin as first member
 *   npm run organizations -- add-member <organization name or admin email> <email>
 *   npm run organizations -- role <organization name or admin email> <email> owner|admin|member
 *       (both recorded in the organization's audit log, by the operator)
 *   npm run organizations -- onpremise <organization name or admin email> --base-api https://... --login-url https://...
 *                                      [--inactive] [--require-passwordless]
 *       registers (or updates) the organization's on-premise deployment: its members signing in
 *       on the password manager's page are sent to --login-url (POST .../pm/users/onpremise/prelogin)
 *
 * Company SSO (modules/company-sso):
 *   npm run organizations -- sso <org> --identifier <id> --oidc-issuer https://... --client-id <id>
 *       OpenID Connect; the client secret is read from the COMPANY_SSO_CLIENT_SECRET variable
 *       (or --client-secret-file <file>), never from the command line; it is stored sealed
 *   npm run organizations -- sso <org> --identifier <id> --saml-metadata <file.xml>
 *       SAML 2.0 from the IdP's metadata (entity id, SSO URL, signing certificates)
 *   npm run organizations -- sso <org> --require-sso on|off
 *       members may sign in only through SSO (password and email code refused)
 *   npm run organizations -- sso <org>
 *       shows the connection, its domains and the URLs to register at the IdP
 *   npm run organizations -- domain add <org> <domain>      the TXT record to publish
 *   npm run organizations -- domain verify <org> <domain>   looks it up (COMPANY_SSO_DNS_SERVER, or the system's DNS)
 *
 * With PORTAL_URL and OPERATOR_API_KEY (cli/admin-api.ts) `sso <org>` reads through the running
 * server's admin API (key scope admin:organizations); the admin API changes no organization, so
 * every other command refuses there and says where it can run.
 */
import { parseArgs } from 'node:util';
import { adminApiFrom } from './cli/admin-api';
import { organizationsViaApi } from './cli/organizations-via-api';
import { runTool, UsageError } from './cli/run-tool';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { readFileSync } from 'node:fs';
import { recordMembershipChange } from './modules/audit';
import { createCompanySsoService, CompanySsoAdminError } from './modules/company-sso';
import { createOrganizationService, OrganizationAdminError } from './modules/organizations';
import { createRateLimiter } from './platform/rate-limit';
import { createDataProtection, loadDataKey } from './platform/data-protection';
import { createUserService } from './modules/users';
import { systemClock } from './platform/clock';

const USAGE =
  'usage: npm run organizations -- create <name> --admin <email>  |  add-member <org> <email>  |  role <org> <email> owner|admin|member  |  onpremise <org> --base-api https://... --login-url https://... [--inactive] [--require-passwordless]  |  sso <org> [--identifier <id> (--oidc-issuer <url> --client-id <id> | --saml-metadata <file>)] [--require-sso on|off]  |  domain add|verify <org> <domain> (see packages/server/src/organizations-admin.ts)';

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!['create', 'add-member', 'role', 'onpremise', 'sso', 'domain'].includes(command ?? '')) {
    throw new UsageError();
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      admin: { type: 'string' },
      'base-api': { type: 'string' },
      'login-url': { type: 'string' },
      inactive: { type: 'boolean', default: false },
      'require-passwordless': { type: 'boolean', default: false },
      identifier: { type: 'string' },
      'oidc-issuer': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-file': { type: 'string' },
      'saml-metadata': { type: 'string' },
      'require-sso': { type: 'string' },
    },
  });
  // Beside a running server: `sso <org>` reads through the admin API, the changes refuse (cli/organizations-via-api.ts).
  const api = adminApiFrom();
  if (api) return organizationsViaApi(api, command!, rest);
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    const users = createUserService(database.db);
    // The CLI links members to existing accounts; passkeys are not asked here.
    const organizations = createOrganizationService({
      db: database.db,
      clock: systemClock,
      accounts: { accountOf: async (email) => ((user) => user && { userId: user.id, avatarUrl: null })(await users.findByEmail(email)), passkeyCount: async () => 0 },
      // Members added and roles changed here are recorded in the audit log as the web's are (the operator as actor: none).
      onMembershipChanged: (change) => recordMembershipChange({ db: database.db, clock: systemClock }, change),
    });
    if (command === 'sso' || command === 'domain') {
      await companySsoCommand(command, positionals, values, config, database, organizations);
    } else if (command === 'create') {
      const created = await organizations.createNamed({ name: positionals[0], adminEmail: values.admin });
      console.log(`created organization ${created.name} (${created.id}), admin ${created.adminEmail}`);
    } else if (command === 'add-member') {
      const added = await organizations.addMemberTo(positionals[0], positionals[1]);
      console.log(`added ${added.email} to ${added.organization.name}`);
    } else if (command === 'role') {
      const changed = await organizations.setRoleOf(positionals[0], positionals[1], positionals[2]);
      console.log(changed.from === changed.to ? `${changed.email} is already ${changed.to} of ${changed.organization.name}` : `${changed.email} is now ${changed.to} of ${changed.organization.name} (was ${changed.from})`);
    } else {
      const { organization, deployment } = await organizations.registerDeployment({
        organization: positionals[0],
        baseApi: values['base-api'],
        loginUrl: values['login-url'],
        activated: !values.inactive,
        requirePasswordless: values['require-passwordless'],
      });
      console.log(
        `on-premise deployment of ${organization.name}: ${deployment.baseApi} (login ${deployment.loginUrl}), ${deployment.activated ? 'activated' : 'not activated'}${deployment.requirePasswordless ? ', passwordless required' : ''}`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof OrganizationAdminError || error instanceof CompanySsoAdminError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

type Values = Record<string, string | boolean | undefined>;

/** `sso ...` and `domain ...`: company SSO's settings (modules/company-sso). Secrets are never printed. */
async function companySsoCommand(
  command: 'sso' | 'domain',
  positionals: string[],
  values: Values,
  config: ReturnType<typeof loadConfig>,
  database: Awaited<ReturnType<typeof openDatabase>>,
  organizations: ReturnType<typeof createOrganizationService>,
): Promise<void> {
  const limiter = createRateLimiter({ keyPrefix: config.REDIS_KEY_PREFIX });
  const companySso = createCompanySsoService({
    config,
    db: database.db,
    clock: systemClock,
    limiter,
    secrets: createDataProtection(loadDataKey(config)),
    organizations,
    log: { warn: () => undefined },
    signIn: { run: () => Promise.reject(new Error('no sign-in from the command line')) },
  });
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  try {
    if (command === 'domain') {
      const [action, organization, domain] = positionals;
      if (action === 'add') {
        const added = await companySso.addDomain({ organization, domain });
        console.log(`${added.domain.domain} claimed by ${added.organization.name}${added.domain.verifiedAt ? ' (verified)' : ''}: publish this TXT record on ${added.domain.domain}, then run domain verify`);
        console.log(`  ${added.domain.domain}. IN TXT "${added.record}"`);
      } else if (action === 'verify') {
        const verified = await companySso.verifyDomain({ organization, domain });
        console.log(`${verified.domain.domain} verified for ${verified.organization.name}`);
      } else throw new CompanySsoAdminError('usage: domain add|verify <org> <domain>');
      return;
    }
    const organization = positionals[0];
    const secretFile = text('client-secret-file');
    if (text('oidc-issuer') !== undefined || text('client-id') !== undefined) {
      const clientSecret = secretFile ? readFileSync(secretFile, 'utf8').trim() : process.env.COMPANY_SSO_CLIENT_SECRET;
      await companySso.configureOidc({ organization, identifier: text('identifier'), issuer: text('oidc-issuer'), clientId: text('client-id'), clientSecret });
    } else if (text('saml-metadata') !== undefined) {
      let metadataXml: string;
      try {
        metadataXml = readFileSync(text('saml-metadata')!, 'utf8');
      } catch {
        throw new CompanySsoAdminError(`cannot read ${text('saml-metadata')}`);
      }
      await companySso.configureSaml({ organization, identifier: text('identifier'), metadataXml });
    } else if (text('identifier') !== undefined) {
      throw new CompanySsoAdminError('--identifier goes with --oidc-issuer and --client-id, or with --saml-metadata');
    }
    const requireSso = text('require-sso');
    if (requireSso !== undefined) {
      if (requireSso !== 'on' && requireSso !== 'off') throw new CompanySsoAdminError('--require-sso must be on or off');
      await companySso.setRequireSso({ organization, requireSso: requireSso === 'on' });
    }
    const { organization: row, connection, domains } = await companySso.domains({ organization });
    if (!connection) {
      console.log(`${row.name} has no SSO connection`);
      return;
    }
    const urls = companySso.registrationUrls(connection.identifier);
    console.log(`SSO of ${row.name}: identifier ${connection.identifier}, ${connection.kind === 'oidc' ? `OpenID Connect (issuer ${connection.oidcIssuer}, client ${connection.oidcClientId})` : `SAML 2.0 (IdP ${connection.samlEntityId})`}, SSO ${connection.requireSso ? 'required' : 'optional'}`);
    if (connection.kind === 'oidc') console.log(`  redirect URIs to register: ${urls.oidcRedirectUris.join(' ')}`);
    else console.log(`  ACS URL to register: ${urls.acsUrl}\n  SP entity id (audience): ${urls.entityId}`);
    console.log(`  domains: ${domains.map((domain) => `${domain.domain} (${domain.verifiedAt ? 'verified' : 'not verified'})`).join(', ') || 'none'}`);
  } finally {
    await limiter.close();
  }
}

runTool(USAGE, main);

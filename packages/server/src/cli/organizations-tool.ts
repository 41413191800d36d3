/**
 * `npm run organizations` (usage in ../organizations-admin.ts): on the configured database,
 * or, for `sso <org>`, through a running server's admin API (organizations-via-api.ts).
 */
import { readFileSync } from 'node:fs';
import { adminApiFrom } from './admin-api';
import { organizationsViaApi } from './organizations-via-api';
import { commandOf, parseOptions, withDatabase, type OperatorTool, type ToolIo } from './run-tool';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { recordMembershipChange } from '../modules/audit';
import { createCompanySsoService, CompanySsoAdminError, type CompanySsoService } from '../modules/company-sso';
import { createOAuth } from '../modules/oauth';
import { createOrganizationService, type OrganizationService } from '../modules/organizations';
import { createSessionService, type SessionService } from '../modules/sessions';
import { createUserService } from '../modules/users';
import { systemClock, type Clock } from '../platform/clock';
import { createDataProtection, loadDataKey } from '../platform/data-protection';
import { createRateLimiter } from '../platform/rate-limit';

const USAGE =
  'usage: npm run organizations -- create <name> --admin <email>  |  add-member <org> <email>  |  role <org> <email> owner|admin|member  |  onpremise <org> --base-api https://... --login-url https://... [--inactive] [--require-passwordless]  |  sso <org> [--identifier <id> (--oidc-issuer <url> --client-id <id> | --saml-metadata <file>)] [--require-sso on|off]  |  domain add|verify <org> <domain> (see packages/server/src/organizations-admin.ts)';

const OPTIONS = {
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
} as const;

/**
 * The organizations and company SSO services as these commands run them on the database. A
 * member added where SSO is required, or SSO required of the members, ends their other sessions
 * through the sessions service, with the OIDC provider listening as on a server: the provider
 * sessions and tokens on them end, the apps hear of it, and the servers' caches forget (the
 * database notifies them). The provider is made on the first sessions to end, not for every
 * command, and before the sessions service opens the transaction it ends them in: the provider
 * listens to the database's change feed, which on PGlite waits for any transaction open.
 */
export function operatorOrganizationServices(config: Config, db: Database, clock: Clock = systemClock) {
  const secrets = createDataProtection(loadDataKey(config));
  const limiter = createRateLimiter({ keyPrefix: config.REDIS_KEY_PREFIX });
  const quiet = { warn: () => undefined, error: () => undefined };
  let ending: Promise<{ sessions: SessionService; close(): Promise<void> }> | undefined;
  const withProvider = async () => {
    const sessions = createSessionService(db, clock);
    const oauth = await createOAuth({ config, db, secrets, sessions, limiter, clock, log: quiet });
    return { sessions, close: () => oauth.provider.close() };
  };
  const users = createUserService(db);
  // Company SSO is made with the organizations service, whose new members it is told of: bound once both exist.
  const joined: { companySso?: CompanySsoService } = {};
  // The CLI links members to existing accounts; passkeys are not asked here.
  const organizations: OrganizationService = createOrganizationService({
    db,
    clock,
    accounts: { accountOf: async (email) => ((user) => user && { userId: user.id, avatarUrl: null })(await users.findByEmail(email)), passkeyCount: async () => 0 },
    // Members added and roles changed here are recorded in the audit log as the web's are (the operator as actor: none).
    onMembershipChanged: (change) => recordMembershipChange({ db, clock }, change),
    memberJoined: (organizationId, email) => joined.companySso!.memberJoined(organizationId, email),
  });
  const companySso = (joined.companySso = createCompanySsoService({
    config,
    db,
    clock,
    limiter,
    secrets,
    organizations,
    sessions: { endUnlessSsoSince: async (people, alongside) => (await (ending ??= withProvider())).sessions.endUnlessSsoSince(people, alongside) },
    log: quiet,
    signIn: { run: () => Promise.reject(new Error('no sign-in from the command line')) },
  }));
  return {
    organizations,
    companySso,
    async close(): Promise<void> {
      await (await ending)?.close();
      await limiter.close();
    },
  };
}

async function main(argv: string[], io: ToolIo): Promise<number> {
  const { command, rest } = commandOf(argv, ['create', 'add-member', 'role', 'onpremise', 'sso', 'domain']);
  const { values, positionals } = parseOptions(rest, OPTIONS, { max: 3 });
  // Beside a running server: `sso <org>` reads through the admin API, the changes refuse (organizations-via-api.ts).
  const api = adminApiFrom(io.env);
  if (api) return organizationsViaApi(io, api, command, rest);
  // The organizations' and company SSO's refusals are the operator's to read: exit 1 with the message (run-tool.ts).
  return withDatabase(io.env, async ({ config, db }) => {
    const { organizations, companySso, close } = operatorOrganizationServices(config, db);
    try {
      if (command === 'sso' || command === 'domain') {
        await companySsoCommand(io, command, positionals, values, companySso);
      } else if (command === 'create') {
        const created = await organizations.createNamed({ name: positionals[0], adminEmail: values.admin });
        io.out(`created organization ${created.name} (${created.id}), admin ${created.adminEmail}`);
      } else if (command === 'add-member') {
        const added = await organizations.addMemberTo(positionals[0], positionals[1]);
        io.out(`added ${added.email} to ${added.organization.name}`);
      } else if (command === 'role') {
        const changed = await organizations.setRoleOf(positionals[0], positionals[1], positionals[2]);
        io.out(changed.from === changed.to ? `${changed.email} is already ${changed.to} of ${changed.organization.name}` : `${changed.email} is now ${changed.to} of ${changed.organization.name} (was ${changed.from})`);
      } else {
        const { organization, deployment } = await organizations.registerDeployment({
          organization: positionals[0],
          baseApi: values['base-api'],
          loginUrl: values['login-url'],
          activated: !values.inactive,
          requirePasswordless: values['require-passwordless'],
        });
        io.out(
          `on-premise deployment of ${organization.name}: ${deployment.baseApi} (login ${deployment.loginUrl}), ${deployment.activated ? 'activated' : 'not activated'}${deployment.requirePasswordless ? ', passwordless required' : ''}`,
        );
      }
      return 0;
    } finally {
      await close();
    }
  });
}

type Values = Record<string, string | boolean | undefined>;

/** `sso ...` and `domain ...`: company SSO's settings (modules/company-sso). Secrets are never printed. */
async function companySsoCommand(io: ToolIo, command: 'sso' | 'domain', positionals: string[], values: Values, companySso: CompanySsoService): Promise<void> {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  if (command === 'domain') {
    const [action, organization, domain] = positionals;
    if (action === 'add') {
      const added = await companySso.addDomain({ organization, domain });
      io.out(`${added.domain.domain} claimed by ${added.organization.name}${added.domain.verifiedAt ? ' (verified)' : ''}: publish this TXT record on ${added.domain.domain}, then run domain verify`);
      io.out(`  ${added.domain.domain}. IN TXT "${added.record}"`);
    } else if (action === 'verify') {
      const verified = await companySso.verifyDomain({ organization, domain });
      io.out(`${verified.domain.domain} verified for ${verified.organization.name}`);
    } else throw new CompanySsoAdminError('usage: domain add|verify <org> <domain>');
    return;
  }
  const organization = positionals[0];
  const secretFile = text('client-secret-file');
  if (text('oidc-issuer') !== undefined || text('client-id') !== undefined) {
    const clientSecret = secretFile ? readFileSync(secretFile, 'utf8').trim() : io.env.COMPANY_SSO_CLIENT_SECRET;
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
    const { sessionsEnded } = await companySso.setRequireSso({ organization, requireSso: requireSso === 'on' });
    if (requireSso === 'on') io.out(`${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} of members not signed in through SSO ended`);
  }
  const { organization: row, connection, domains } = await companySso.domains({ organization });
  if (!connection) {
    io.out(`${row.name} has no SSO connection`);
    return;
  }
  const urls = companySso.registrationUrls(connection.identifier);
  io.out(`SSO of ${row.name}: identifier ${connection.identifier}, ${connection.kind === 'oidc' ? `OpenID Connect (issuer ${connection.oidcIssuer}, client ${connection.oidcClientId})` : `SAML 2.0 (IdP ${connection.samlEntityId})`}, SSO ${connection.requireSso ? 'required' : 'optional'}`);
  if (connection.kind === 'oidc') io.out(`  redirect URIs to register: ${urls.oidcRedirectUris.join(' ')}`);
  else io.out(`  ACS URL to register: ${urls.acsUrl}\n  SP entity id (audience): ${urls.entityId}`);
  io.out(`  domains: ${domains.map((domain) => `${domain.domain} (${domain.verifiedAt ? 'verified' : 'not verified'})`).join(', ') || 'none'}`);
}

export const organizationsTool: OperatorTool = { usage: USAGE, main };

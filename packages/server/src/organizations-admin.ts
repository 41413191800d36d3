/**
 * Operator commands of organizations (enterprises), against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run organizations -- create <name> --admin <email>
 *       a new organization with its admin as first member
 *   npm run organizations -- add-member <organization name or admin email> <email>
 *   npm run organizations -- onpremise <organization name or admin email> --base-api https://... --login-url https://...
 *                                      [--inactive] [--require-passwordless]
 *       registers (or updates) the organization's on-premise deployment: its members signing in
 *       on the password manager's page are sent to --login-url (POST .../pm/users/onpremise/prelogin)
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { createOrganizationService, OrganizationAdminError } from './modules/organizations';
import { createUserService } from './modules/users';
import { systemClock } from './platform/clock';

const USAGE =
  'usage: npm run organizations -- create <name> --admin <email>  |  add-member <org> <email>  |  onpremise <org> --base-api https://... --login-url https://... [--inactive] [--require-passwordless] (see packages/server/src/organizations-admin.ts)';

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!['create', 'add-member', 'onpremise'].includes(command ?? '')) {
    console.error(USAGE);
    return 1;
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
    },
  });
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
    });
    if (command === 'create') {
      const created = await organizations.createNamed({ name: positionals[0], adminEmail: values.admin });
      console.log(`created organization ${created.name} (${created.id}), admin ${created.adminEmail}`);
    } else if (command === 'add-member') {
      const added = await organizations.addMemberTo(positionals[0], positionals[1]);
      console.log(`added ${added.email} to ${added.organization.name}`);
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
    if (error instanceof OrganizationAdminError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

/**
 * Operator commands of the OpenID Connect provider, against the configured database
 * (DATABASE_URL, or PGlite in DATA_DIR, which a running server holds: then the command refuses),
 * or, with PORTAL_URL and OPERATOR_API_KEY set, through that server's admin API (a changing
 * command then takes `--reason "..."` for the operator audit log):
 *
 *   npm run clients -- add --name "Outside App" --redirect-uri https://app.example/cb [--redirect-uri ...]
 *                          [--site https://app.example] [--logo ./logo.png or https://app.example/logo.png] [--public]
 *                          [--post-logout-uri https://app.example/] [--backchannel-logout-uri https://app.example/bcl] [--device-flow]
 *   npm run clients -- logo <client_id> <file or https URL>   a new logo (PNG, JPEG or WebP; served as our own 128 px WebP)
 *   npm run clients -- rotate <client_id>      a new secret (printed once); the old one stops working
 *   npm run clients -- list
 *   npm run clients -- remove <client_id>      the app, its consents and its tokens
 *   npm run signing-keys -- rotate [--now]     new signing keys (RS256, ES256): every node publishes them
 *                                              at its next key reload (OIDC_KEYS_RELOAD_SECONDS) and signs
 *                                              with them from 5 minutes on (--now: from each node's next
 *                                              reload, for a leaked key); the old ones stay published for a
 *                                              day after that
 *   npm run signing-keys -- drop <kid>         removes a key at once (a leaked one, after rotate --now)
 *   npm run signing-keys -- list
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { adminApiFrom } from './cli/admin-api';
import { clientsViaApi, keysViaApi } from './cli/oauth-via-api';
import { runTool, UsageError } from './cli/run-tool';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { oidcKeys, oidcModels } from './db/schema';
import { dropSigningKey, rotateSigningKey, SIGNING_ALGS, thirdPartyClients } from './modules/oauth';
import { createDataProtection, loadDataKey } from './platform/data-protection';
import { egressFetch, egressPolicyFor, type EgressPolicy } from './platform/egress';

const USAGE = 'usage: npm run clients -- add|logo|rotate|list|remove ...  |  npm run signing-keys -- rotate [--now]|drop <kid>|list (see packages/server/src/oauth-admin.ts)';

async function main(): Promise<number> {
  const [group, command, ...rest] = process.argv.slice(2);
  // Known before the database is opened: a typo is told as such, not as a busy data folder.
  if (!(group === 'clients' && ['add', 'logo', 'rotate', 'list', 'remove'].includes(command ?? '')) && !(group === 'keys' && ['rotate', 'drop', 'list'].includes(command ?? ''))) {
    throw new UsageError(command ? `unknown command: ${command}` : '');
  }
  // Beside a running server: through its admin API, never the database it holds.
  const api = adminApiFrom();
  if (api) return group === 'clients' ? clientsViaApi(api, command!, rest) : keysViaApi(api, command!, rest);
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    const db = database.db;
    if (group === 'clients') {
      const egress = egressPolicyFor(config);
      const clients = thirdPartyClients(db, egress);
      if (command === 'add') {
        const { values } = parseArgs({
          args: rest,
          options: {
            name: { type: 'string' },
            'redirect-uri': { type: 'string', multiple: true },
            site: { type: 'string' },
            logo: { type: 'string' },
            public: { type: 'boolean', default: false },
            'post-logout-uri': { type: 'string', multiple: true },
            'backchannel-logout-uri': { type: 'string' },
            'device-flow': { type: 'boolean', default: false },
          },
        });
        const registered = await clients.add({
          name: values.name ?? '',
          redirectUris: values['redirect-uri'] ?? [],
          site: values.site,
          public: values.public,
          postLogoutRedirectUris: values['post-logout-uri'] ?? [],
          backchannelLogoutUri: values['backchannel-logout-uri'],
          deviceFlow: values['device-flow'],
        }, values.logo ? await readImage(values.logo, egress) : undefined);
        console.log(`client_id:     ${registered.clientId}`);
        if (registered.clientSecret) console.log(`client_secret: ${registered.clientSecret}\n(shown once: only its hash is stored)`);
        return 0;
      }
      if (command === 'logo' && rest[0] && rest[1]) {
        if (!(await clients.setLogo(rest[0], await readImage(rest[1], egress)))) return fail(`no client ${rest[0]}`);
        console.log(`logo of ${rest[0]} replaced`);
        return 0;
      }
      if (command === 'rotate' && rest[0]) {
        const rotated = await clients.rotate(rest[0]);
        if (!rotated) return fail(`no client ${rest[0]}`);
        console.log(`client_secret: ${rotated.clientSecret}\n(shown once: the previous secret no longer works)`);
        return 0;
      }
      if (command === 'list') {
        for (const client of await clients.list()) {
          console.log([client.clientId, client.public ? 'public' : 'confidential', client.name, client.redirectUris.join(' '), client.createdAt.toISOString()].join('\t'));
        }
        return 0;
      }
      if (command === 'remove' && rest[0]) {
        if (!(await clients.remove(rest[0]))) return fail(`no client ${rest[0]}`);
        await db.delete(oidcModels).where(eq(oidcModels.clientId, rest[0]));
        console.log(`removed ${rest[0]} with its consents and tokens`);
        return 0;
      }
    }
    if (group === 'keys') {
      if (command === 'rotate' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--now'))) {
        const secrets = createDataProtection(loadDataKey(config));
        const rotated = await rotateSigningKey(db, secrets, { immediately: rest[0] === '--now' });
        console.log(
          `new signing keys ${rotated.kids.map((kid, i) => `${kid} (${SIGNING_ALGS[i]})`).join(', ')}: published by every node at its next key reload (OIDC_KEYS_RELOAD_SECONDS), signing from ${rotated.activatesAt.toISOString()}; ` +
            `${rotated.retired} retired then (published for a day more), ${rotated.dropped} dropped.`,
        );
        return 0;
      }
      if (command === 'drop' && rest.length === 1) {
        if (!(await dropSigningKey(db, rest[0]!))) return fail(`no signing key ${rest[0]}`);
        console.log(`dropped ${rest[0]}: every node stops publishing it at its next key reload (a node left without a key makes a new one)`);
        return 0;
      }
      if (command === 'list') {
        const now = new Date();
        for (const key of await db.select().from(oidcKeys).orderBy(oidcKeys.activatesAt)) {
          const state = key.activatesAt > now ? `signs from ${key.activatesAt.toISOString()}` : key.retiredAt && key.retiredAt <= now ? `retired ${key.retiredAt.toISOString()}` : 'signing';
          console.log([key.kid, key.alg, key.createdAt.toISOString(), state].join('\t'));
        }
        return 0;
      }
    }
    throw new UsageError();
  } finally {
    await database.close();
  }
}

/**
 * A logo's bytes: a local file, or an https URL the operator names, fetched once through the
 * egress guard (public addresses only, no redirects, 5 MB at most).
 */
async function readImage(source: string, egress: EgressPolicy): Promise<Buffer> {
  if (!source.startsWith('https://')) return readFile(source);
  const response = await egressFetch(source, {}, { ...egress, maxResponseBytes: 5 * 1024 * 1024 });
  if (!response.ok) throw new Error(`${source} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

runTool(USAGE, main);

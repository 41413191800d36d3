/**
 * `npm run clients` and `npm run signing-keys` (usage in ../oauth-admin.ts): on the configured
 * database, or through a running server's admin API (oauth-via-api.ts).
 */
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { adminApiFrom } from './admin-api';
import { clientAddOptions, clientsViaApi, keysViaApi } from './oauth-via-api';
import { commandOf, parseOptions, refuse, withDatabase, type OperatorTool, type ToolIo } from './run-tool';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { oidcKeys, oidcModels } from '../db/schema';
import { dropSigningKey, rotateSigningKey, SIGNING_ALGS, thirdPartyClients } from '../modules/oauth';
import { createDataProtection, loadDataKey } from '../platform/data-protection';
import { egressFetch, egressPolicyFor, type EgressPolicy } from '../platform/egress';

const USAGE = 'usage: npm run clients -- add|logo|rotate|list|remove ...  |  npm run signing-keys -- rotate [--now]|drop <kid>|list (see packages/server/src/oauth-admin.ts)';
const COMMANDS = ['clients add', 'clients logo', 'clients rotate', 'clients list', 'clients remove', 'keys rotate', 'keys drop', 'keys list'];

async function main(argv: string[], io: ToolIo): Promise<number> {
  // Known before the database is opened: a typo is told as such, not as a busy data folder.
  const { command, rest } = commandOf(argv, COMMANDS, 2);
  const [group, name] = command.split(' ') as [string, string];
  // Beside a running server: through its admin API, never the database it holds.
  const api = adminApiFrom(io.env);
  if (api) return group === 'clients' ? clientsViaApi(io, api, name, rest) : keysViaApi(io, api, name, rest);
  return withDatabase(io.env, ({ config, db }) => (group === 'clients' ? clients(io, config, db, name, rest) : keys(io, config, db, name, rest)));
}

async function clients(io: ToolIo, config: Config, db: Database, command: string, args: string[]): Promise<number> {
  const egress = egressPolicyFor(config);
  const registry = thirdPartyClients(db, egress);
  if (command === 'add') {
    const { values } = parseOptions(args, clientAddOptions);
    const registered = await registry.add({
      name: values.name ?? '',
      redirectUris: values['redirect-uri'] ?? [],
      site: values.site,
      public: values.public,
      postLogoutRedirectUris: values['post-logout-uri'] ?? [],
      backchannelLogoutUri: values['backchannel-logout-uri'],
      deviceFlow: values['device-flow'],
    }, values.logo ? await readImage(values.logo, egress) : undefined);
    io.out(`client_id:     ${registered.clientId}`);
    if (registered.clientSecret) io.out(`client_secret: ${registered.clientSecret}\n(shown once: only its hash is stored)`);
    return 0;
  }
  if (command === 'list') {
    parseOptions(args, {});
    for (const client of await registry.list()) {
      io.out([client.clientId, client.public ? 'public' : 'confidential', client.name, client.redirectUris.join(' '), client.createdAt.toISOString()].join('\t'));
    }
    return 0;
  }
  if (command === 'logo') {
    const [clientId, source] = parseOptions(args, {}, { min: 2 }).positionals as [string, string];
    if (!(await registry.setLogo(clientId, await readImage(source, egress)))) return refuse(io, `no client ${clientId}`);
    io.out(`logo of ${clientId} replaced`);
    return 0;
  }
  const [clientId] = parseOptions(args, {}, { min: 1 }).positionals as [string];
  if (command === 'rotate') {
    const rotated = await registry.rotate(clientId);
    if (!rotated) return refuse(io, `no client ${clientId}`);
    io.out(`client_secret: ${rotated.clientSecret}\n(shown once: the previous secret no longer works)`);
    return 0;
  }
  if (!(await registry.remove(clientId))) return refuse(io, `no client ${clientId}`);
  await db.delete(oidcModels).where(eq(oidcModels.clientId, clientId));
  io.out(`removed ${clientId} with its consents and tokens`);
  return 0;
}

async function keys(io: ToolIo, config: Config, db: Database, command: string, args: string[]): Promise<number> {
  if (command === 'rotate') {
    const { values } = parseOptions(args, { now: { type: 'boolean', default: false } });
    const secrets = createDataProtection(loadDataKey(config));
    const rotated = await rotateSigningKey(db, secrets, { immediately: values.now });
    io.out(
      `new signing keys ${rotated.kids.map((kid, i) => `${kid} (${SIGNING_ALGS[i]})`).join(', ')}: published by every node at its next key reload (OIDC_KEYS_RELOAD_SECONDS), signing from ${rotated.activatesAt.toISOString()}; ` +
        `${rotated.retired} retired then (published for a day more), ${rotated.dropped} dropped.`,
    );
    return 0;
  }
  if (command === 'drop') {
    const [kid] = parseOptions(args, {}, { min: 1 }).positionals as [string];
    if (!(await dropSigningKey(db, kid))) return refuse(io, `no signing key ${kid}`);
    io.out(`dropped ${kid}: every node stops publishing it at its next key reload (a node left without a key makes a new one)`);
    return 0;
  }
  parseOptions(args, {});
  const now = new Date();
  for (const key of await db.select().from(oidcKeys).orderBy(oidcKeys.activatesAt)) {
    const state = key.activatesAt > now ? `signs from ${key.activatesAt.toISOString()}` : key.retiredAt && key.retiredAt <= now ? `retired ${key.retiredAt.toISOString()}` : 'signing';
    io.out([key.kid, key.alg, key.createdAt.toISOString(), state].join('\t'));
  }
  return 0;
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

export const oauthTool: OperatorTool = { usage: USAGE, main };

/**
 * `npm run clients` and `npm run signing-keys` through a running server's admin API
 * (PORTAL_URL + OPERATOR_API_KEY, see admin-api.ts): the same commands and output as on the
 * database, with the change recorded in the operator audit log under `--reason`.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { adminAppEndpoints, adminKeyEndpoints, DEVICE_CODE_GRANT, type OutsideAppGrantType } from '@portal/contracts';
import { callAdmin, type AdminApi } from './admin-api';
import { UsageError, type ToolIo } from './run-tool';

/** The options of `clients add`, on the database (oauth-admin.ts) as here. */
export const clientAddOptions = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  site: { type: 'string' },
  logo: { type: 'string' },
  public: { type: 'boolean', default: false },
  'post-logout-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  'device-flow': { type: 'boolean', default: false },
} as const;

/** What the operator audit log says when the operator gave no `--reason`. */
const defaultReason = (command: string) => `command line: npm run ${command}`;

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** `rest` split into its positionals and `--reason` (every changing call carries one). */
function withReason(rest: string[], command: string, options: Options = {}) {
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { ...options, reason: { type: 'string' } } });
  const given = values as Record<string, string | boolean | Array<string | boolean> | undefined>;
  const reason = typeof given.reason === 'string' ? given.reason : defaultReason(command);
  return { values: given, positionals, reason };
}

export async function clientsViaApi(io: ToolIo, api: AdminApi, command: string, rest: string[]): Promise<number> {
  if (command === 'add') {
    const { values, positionals, reason } = withReason(rest, 'clients -- add', clientAddOptions);
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const grants: OutsideAppGrantType[] = values['device-flow'] ? ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT] : ['authorization_code', 'refresh_token'];
    const registered = await callAdmin(api, adminAppEndpoints.registerApp, {
      body: {
        name: (values.name as string | undefined) ?? '',
        redirect_uris: (values['redirect-uri'] as string[] | undefined) ?? [],
        post_logout_redirect_uris: (values['post-logout-uri'] as string[] | undefined) ?? [],
        backchannel_logout_uri: (values['backchannel-logout-uri'] as string | undefined) ?? null,
        site: (values.site as string | undefined) ?? null,
        public: values.public === true,
        grant_types: grants,
        reason,
      },
    });
    const clientId = registered.app.client_id;
    io.out(`client_id:     ${clientId}`);
    if (registered.client_secret) io.out(`client_secret: ${registered.client_secret}\n(shown once: only its hash is stored)`);
    if (typeof values.logo === 'string') {
      await callAdmin(api, adminAppEndpoints.setAppLogo, { params: { client_id: clientId }, body: { ...(await logoSource(values.logo)), reason } });
      io.out(`logo of ${clientId} set`);
    }
    return 0;
  }
  if (command === 'logo') {
    const { positionals, reason } = withReason(rest, 'clients -- logo');
    if (positionals.length !== 2) throw new UsageError('clients logo takes <client_id> <file or https URL>');
    await callAdmin(api, adminAppEndpoints.setAppLogo, { params: { client_id: positionals[0] }, body: { ...(await logoSource(positionals[1]!)), reason } });
    io.out(`logo of ${positionals[0]} replaced`);
    return 0;
  }
  if (command === 'rotate') {
    const { positionals, reason } = withReason(rest, 'clients -- rotate');
    if (positionals.length !== 1) throw new UsageError('clients rotate takes <client_id>');
    const rotated = await callAdmin(api, adminAppEndpoints.rotateAppSecret, { params: { client_id: positionals[0] }, body: { reason } });
    io.out(`client_secret: ${rotated.client_secret}\n(shown once: the previous secret no longer works)`);
    return 0;
  }
  if (command === 'list') {
    if (rest.length) throw new UsageError('clients list takes no arguments');
    const { apps } = await callAdmin(api, adminAppEndpoints.listApps);
    for (const app of apps.filter((one) => one.kind === 'outside')) {
      io.out([app.client_id, app.public ? 'public' : 'confidential', app.name, app.redirect_uris.join(' '), app.created_at ?? '', ...(app.disabled ? ['disabled'] : [])].join('\t'));
    }
    return 0;
  }
  if (command === 'remove') {
    const { positionals, reason } = withReason(rest, 'clients -- remove');
    if (positionals.length !== 1) throw new UsageError('clients remove takes <client_id>');
    await callAdmin(api, adminAppEndpoints.deleteApp, { params: { client_id: positionals[0] }, body: { reason } });
    io.out(`removed ${positionals[0]} with its consents and tokens`);
    return 0;
  }
  throw new UsageError(`unknown command: ${command}`);
}

export async function keysViaApi(io: ToolIo, api: AdminApi, command: string, rest: string[]): Promise<number> {
  if (command === 'rotate') {
    const { values, positionals, reason } = withReason(rest, 'signing-keys -- rotate', { now: { type: 'boolean', default: false } });
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const rotated = await callAdmin(api, adminKeyEndpoints.rotateSigningKeys, { body: { immediately: values.now === true, reason } });
    io.out(
      `new signing keys ${rotated.kids.join(', ')}: published by every node at its next key reload (OIDC_KEYS_RELOAD_SECONDS), signing from ${rotated.activates_at}; ` +
        `${rotated.retired} retired then (published for a day more), ${rotated.dropped} dropped.`,
    );
    return 0;
  }
  if (command === 'drop') {
    const { positionals, reason } = withReason(rest, 'signing-keys -- drop');
    if (positionals.length !== 1) throw new UsageError('signing-keys drop takes <kid>');
    await callAdmin(api, adminKeyEndpoints.dropSigningKey, { params: { kid: positionals[0] }, body: { reason } });
    io.out(`dropped ${positionals[0]}: every node stops publishing it at its next key reload (a node left without a key makes a new one)`);
    return 0;
  }
  if (command === 'list') {
    if (rest.length) throw new UsageError('signing-keys list takes no arguments');
    const { keys } = await callAdmin(api, adminKeyEndpoints.listSigningKeys);
    for (const key of keys) io.out([key.kid, key.alg, key.created_at, key.state === 'published' ? `signs from ${key.activates_at}` : key.state === 'signing' ? 'signing' : `retired ${key.retired_at ?? ''}`].join('\t'));
    return 0;
  }
  throw new UsageError(`unknown command: ${command}`);
}

/** A logo for the admin API: a local file's bytes, or an https URL the server fetches once itself (through its egress guard). */
async function logoSource(source: string): Promise<{ image_base64: string } | { url: string }> {
  if (source.startsWith('https://')) return { url: source };
  return { image_base64: (await readFile(source)).toString('base64') };
}

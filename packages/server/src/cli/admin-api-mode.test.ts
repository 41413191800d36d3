import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { operatorKey as makeKey, runToolInProcess, runToolProcess } from '../../test/operator-tools';
import { oauthClients, operatorAuditEvents } from '../db/schema';
import { billingTool } from './billing-tool';
import { oauthTool } from './oauth-tool';
import { walletTool } from './wallet-tool';

/**
 * The operator commands beside a running server: with PORTAL_URL and OPERATOR_API_KEY they go
 * through its admin API (a real listening server, the command as a child process), so the
 * server has the change at once; the key's scope and its operator's role are the API's, and
 * the key never shows in what the command prints. The commands run in this process
 * (runToolWith); a few run as their own process, as an operator starts them.
 */
const CALLBACK = 'https://app.example/cb';
let server: TestServer;
const keys: Record<string, string> = {};

const operatorKey = (name: string, roles: Array<'owner' | 'support' | 'finance'>, scopes: string[]) => makeKey(server, name, roles, scopes);
const TOOLS = { 'oauth-admin': oauthTool, 'billing-admin': billingTool, 'wallet-admin': walletTool };
const tool = (entry: keyof typeof TOOLS, args: string[], env: Record<string, string>) => runToolInProcess(TOOLS[entry], args, env);
const oauthAdmin = (args: string[], env: Record<string, string>) => tool('oauth-admin', args, env);

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  keys.owner = await operatorKey('owner', ['owner'], ['admin:apps', 'admin:keys']);
  keys.ownerPeopleOnly = await operatorKey('owner2', ['owner'], ['admin:people']);
  keys.support = await operatorKey('support', ['support'], ['admin:apps', 'admin:billing']);
  keys.finance = await operatorKey('finance', ['finance'], ['admin:billing']);
}, 120_000);
afterAll(() => server?.close());

const outsideApps = () => server.database.db.select({ clientId: oauthClients.clientId }).from(oauthClients);

describe('operator commands through the admin API (PORTAL_URL + OPERATOR_API_KEY)', () => {
  it('register an app the running server serves at once, with the reason in the operator audit log', async () => {
    const added = await runToolProcess('oauth-admin', ['clients', 'add', '--name', 'Partner App', '--redirect-uri', CALLBACK, '--reason', 'Partner onboarding ticket 7'], { PORTAL_URL: server.url, OPERATOR_API_KEY: keys.owner! });
    expect(added.code, added.stderr).toBe(0);
    const clientId = /client_id: +(\S+)/.exec(added.stdout)?.[1];
    const secret = /client_secret: (\S+)/.exec(added.stdout)?.[1];
    expect(clientId).toBeTruthy();
    expect(secret).toBeTruthy();

    // The server's provider knows the client now: its authorization request goes on to the sign-in, not to an error.
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const discovery = (await server.app.inject({ url: '/.well-known/openid-configuration' })).json() as { authorization_endpoint: string };
    const authorize = new URL(discovery.authorization_endpoint);
    for (const [name, value] of Object.entries({ client_id: clientId!, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', state: 'x' })) authorize.searchParams.set(name, value);
    const answer = await server.app.inject({ url: authorize.pathname + authorize.search });
    expect(answer.statusCode, answer.body).toBe(303);
    expect(answer.headers.location).not.toContain('error=');

    const listed = await oauthAdmin(['clients', 'list'], { PORTAL_URL: server.url, OPERATOR_API_KEY: keys.owner! });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${clientId}\tconfidential\tPartner App\t${CALLBACK}`);

    const [audited] = await server.database.db.select().from(operatorAuditEvents).where(eq(operatorAuditEvents.reason, 'Partner onboarding ticket 7'));
    expect(audited).toMatchObject({ actorEmail: 'owner@example.com' });

    // Rotated: the new secret printed once; removed: gone from the server.
    const rotated = await oauthAdmin(['clients', 'rotate', clientId!, '--reason', 'Leaked in a log'], { PORTAL_URL: server.url, OPERATOR_API_KEY: keys.owner! });
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/client_secret: \S+/);
    expect(rotated.stdout).not.toContain(secret);
    const removed = await oauthAdmin(['clients', 'remove', clientId!], { PORTAL_URL: server.url, OPERATOR_API_KEY: keys.owner! });
    expect(removed.code).toBe(0);
    expect((await outsideApps()).map((row) => row.clientId)).not.toContain(clientId);
    // No reason given: the command says where the change came from.
    const [removal] = await server.database.db.select().from(operatorAuditEvents).where(eq(operatorAuditEvents.reason, 'command line: npm run clients -- remove'));
    expect(removal).toBeDefined();

    const keysListed = await oauthAdmin(['keys', 'list'], { PORTAL_URL: server.url, OPERATOR_API_KEY: keys.owner! });
    expect(keysListed.code).toBe(0);
    expect(keysListed.stdout).toMatch(/\tsigning/);
  }, 240_000);

  it('are refused as the API refuses the key: a missing scope, a role that may not change apps, a revoked or made-up key; nothing registered, the key never printed', async () => {
    const before = await outsideApps();
    const add = ['clients', 'add', '--name', 'Sneaky App', '--redirect-uri', CALLBACK];
    for (const [key, code] of [
      [keys.ownerPeopleOnly!, 'admin.scope_missing'],
      [keys.support!, 'admin.forbidden'],
      [`pk_${randomBytes(32).toString('base64url').slice(0, 43)}`, 'unauthorized'],
    ] as const) {
      const refused = await oauthAdmin(add, { PORTAL_URL: server.url, OPERATOR_API_KEY: key });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain(code);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      expect(refused.stdout + refused.stderr).not.toContain(key);
    }
    expect(await outsideApps()).toEqual(before);
  }, 240_000);

  it('refuse a half-given target, and a plain-http server that is not this machine (the key would cross the network in clear)', async () => {
    const noKey = await oauthAdmin(['clients', 'list'], { PORTAL_URL: server.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('PORTAL_URL and OPERATOR_API_KEY go together');
    const clear = await oauthAdmin(['clients', 'list'], { PORTAL_URL: 'http://portal.example', OPERATOR_API_KEY: keys.owner! });
    expect(clear.code).toBe(2);
    expect(clear.stderr).toContain('PORTAL_URL must be https');
    expect(clear.stderr).not.toContain(keys.owner);
  }, 120_000);

  it('add and list promo codes as finance, refuse support (who may not change money), and refuse what the admin API cannot do', async () => {
    const api = (key: string) => ({ PORTAL_URL: server.url, OPERATOR_API_KEY: key });
    const refused = await runToolProcess('billing-admin', ['promo', 'add', '--code', 'SUPPORT10', '--percent', '10'], api(keys.support!));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('admin.forbidden');

    const added = await tool('billing-admin', ['promo', 'add', '--code', 'CLI25', '--percent', '25', '--limit', '5', '--reason', 'Spring campaign'], api(keys.finance!));
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added CLI25');
    const listed = await tool('billing-admin', ['promo', 'list'], api(keys.finance!));
    expect(listed.stdout).toMatch(/^CLI25\t/m);
    expect(listed.stdout).not.toContain('SUPPORT10');
    const badLimit = await tool('billing-admin', ['promo', 'add', '--code', 'CLI26', '--percent', '5', '--limit', 'lots'], api(keys.finance!));
    expect(badLimit.code).toBe(2);

    // No endpoint adjusts a wallet: refused in this mode, never done on a database beside the server.
    const wallet = await tool('wallet-admin', ['adjust', 'finance@example.com', 'USD', '5', '--note', 'Goodwill'], api(keys.finance!));
    expect(wallet.code).toBe(1);
    expect(wallet.stderr).toContain('npm run wallet -- adjust has no admin API endpoint');
  }, 240_000);
});

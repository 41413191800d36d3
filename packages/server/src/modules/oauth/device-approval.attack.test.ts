import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';

/**
 * A device code answered once stays answered: a refusal is never turned into an approval, by
 * the person who refused or anyone else, and the same person approving twice gets one grant.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const PASSWORD = 'plum-orbit-cactus-917';
let server: TestServer;
let identity: ReturnType<typeof identityClient>;

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: {}, env: { TRUST_PROXY: '1' } });
  identity = identityClient(server.app, server.database);
});
afterAll(() => server?.close());

const api = (token: string, path: string, body: unknown) =>
  fetch(`${server.url}/v3${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const userIdOf = async (token: string) => ((await (await fetch(`${server.url}/v3/sso/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }).id;
const desktop = () => oidc.discovery(new URL(server.url), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });

describe('a device code answered once', () => {
  it('stays refused: neither the person who refused nor another can approve it after', async () => {
    const stamp = Date.now();
    const [refuser, other] = await Promise.all([identity.registeredUser(`device-refuse-a-${stamp}@example.com`, PASSWORD), identity.registeredUser(`device-refuse-b-${stamp}@example.com`, PASSWORD)]);
    const client = await desktop();
    const device = await oidc.initiateDeviceAuthorization(client, { scope: 'openid email' });
    expect((await api(refuser!, '/oauth/device/decision', { user_code: device.user_code, allow: false })).status).toBe(200);
    for (const token of [refuser!, other!]) {
      const approval = await api(token, '/oauth/device/decision', { user_code: device.user_code, allow: true });
      expect(approval.status).toBe(400);
      expect((await approval.json()).code).toBe('1002');
    }
    await expect(oidc.pollDeviceAuthorizationGrant(client, { ...device, interval: 0.01 })).rejects.toMatchObject({ error: 'access_denied' });
  }, 60_000);

  it('is approved once by the same person: the second approval is refused and leaves no second grant', async () => {
    const person = await identity.registeredUser(`device-twice-${Date.now()}@example.com`, PASSWORD);
    const client = await desktop();
    const device = await oidc.initiateDeviceAuthorization(client, { scope: 'openid email' });
    expect((await api(person, '/oauth/device/decision', { user_code: device.user_code, allow: true })).status).toBe(200);
    expect((await api(person, '/oauth/device/decision', { user_code: device.user_code, allow: true })).status).toBe(400);
    const id = await userIdOf(person);
    const grants = await server.database.db.execute<{ n: number }>(sql`select count(*)::int as n from oidc_models where model = 'Grant' and account_id = ${id}`);
    expect(grants.rows[0]!.n).toBe(1);
  }, 60_000);
});

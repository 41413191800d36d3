import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { startProviderTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';

/**
 * The device flow's approval (RFC 8628) on the portal's page: a code typed on a phone or a TV
 * may be a phisher's, so approving it needs a sign-in (or a re-authentication) from the last
 * few minutes; the page first names the app and shows the code to compare with the device.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const PASSWORD = 'plum-orbit-cactus-917';
const clock = manualClock();
let server: TestServer;
let identity: ReturnType<typeof identityClient>;

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: {}, clock, env: { TRUST_PROXY: '1' } });
  identity = identityClient(server.app, server.database);
});
afterAll(() => server?.close());

const api = (token: string, path: string, body: unknown) =>
  fetch(`${server.url}/v3${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('approving a device sign-in', () => {
  it('names the app and the code, and asks a session signed in more than a few minutes ago to prove it is the person first', async () => {
    const desktop = await oidc.discovery(new URL(server.url), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const token = await identity.registeredUser(`device-${Date.now()}@example.com`, PASSWORD);
    const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid email' });
    // verification_uri_complete pre-fills the code; the page still shows it to be compared, and the person decides.
    expect(device.verification_uri_complete).toBe(`${server.url}/login/quick-app?user_code=${encodeURIComponent(device.user_code)}`);

    clock.advance(6 * 60_000);
    const lookup = await api(token, '/oauth/device/lookup', { user_code: device.user_code });
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toMatchObject({ app: { client_id: 'test-desktop', name: 'Test Desktop' }, user_code: device.user_code });

    const stale = await api(token, '/oauth/device/decision', { user_code: device.user_code, allow: true });
    expect(stale.status).toBe(403);
    expect((await stale.json()).code).toBe('auth.reauth_required');
    // Nothing was approved: the device is still waiting.
    await expect(oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 }, undefined, { signal: AbortSignal.timeout(300) })).rejects.toThrow();

    expect((await api(token, '/sso/me/reauth', { password: PASSWORD })).status).toBe(204);
    const approved = await api(token, '/oauth/device/decision', { user_code: device.user_code, allow: true });
    expect(approved.status).toBe(200);
    const tokens = await oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 });
    expect(tokens.access_token).toBeTruthy();
  }, 30_000);
});

/** Two people approving one code: the device must sign in exactly one of them, whoever asks first or at the same time. */
describe('one device code, two people', () => {
  const subjectOf = (tokens: { id_token?: string }) => JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString()).sub as string;
  const userIdOf = async (token: string) => {
    const response = await fetch(`${server.url}/v3/sso/me`, { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { id: string }).id;
  };

  it('lets exactly one of two simultaneous approvals win; the other is told the code is not valid', async () => {
    const desktop = await oidc.discovery(new URL(server.url), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const stamp = Date.now();
    const people = await Promise.all([identity.registeredUser(`device-race-a-${stamp}@example.com`, PASSWORD), identity.registeredUser(`device-race-b-${stamp}@example.com`, PASSWORD)]);
    for (let round = 0; round < 5; round++) {
      const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid email' });
      const answers = await Promise.all(people.map((token) => api(token, '/oauth/device/decision', { user_code: device.user_code, allow: true })));
      const winners = answers.flatMap((answer, index) => (answer.status === 200 ? [index] : []));
      expect(winners).toHaveLength(1);
      const loser = answers[1 - winners[0]!]!;
      expect(loser.status).toBe(400);
      expect(await loser.json()).toMatchObject({ code: '1002', message: 'The authorization code is not valid' });
      // The loser was refused before anything was made for them: one grant per round, the winner's.
      const ids = await Promise.all(people.map(userIdOf));
      const grants = await server.database.db.execute<{ n: number }>(sql`select count(*)::int as n from oidc_models where model = 'Grant' and account_id in (${ids[0]}, ${ids[1]})`);
      expect(grants.rows[0]!.n).toBe(round + 1);
      // The device signs in as the person whose approval won, not as whoever wrote last.
      const tokens = await oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 });
      expect(subjectOf(tokens)).toBe(await userIdOf(people[winners[0]!]!));
    }
  }, 60_000);

  it('refuses an approval or a refusal of a code another person already approved, and keeps the first answer', async () => {
    const desktop = await oidc.discovery(new URL(server.url), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const stamp = Date.now();
    const [first, second] = await Promise.all([identity.registeredUser(`device-again-a-${stamp}@example.com`, PASSWORD), identity.registeredUser(`device-again-b-${stamp}@example.com`, PASSWORD)]);
    const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid email' });
    expect((await api(first!, '/oauth/device/decision', { user_code: device.user_code, allow: true })).status).toBe(200);
    for (const allow of [true, false]) {
      const again = await api(second!, '/oauth/device/decision', { user_code: device.user_code, allow });
      expect(again.status).toBe(400);
      expect((await again.json()).code).toBe('1002');
    }
    const tokens = await oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 });
    expect(subjectOf(tokens)).toBe(await userIdOf(first!));
  }, 60_000);
});

import { fileURLToPath } from 'node:url';
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

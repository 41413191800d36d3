import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/crypto';
import { startProviderTestServer, type TestServer } from '../../../test/harness';

/**
 * Client authentication as an attacker tries it over HTTP: secrets of every wrong shape
 * (empty, one character off, far longer, the stored hash itself), in the header or the form
 * body, an app id alone for a confidential app, and a public app (no secret) that presents
 * one. Only the app's own secret is taken. A secret rotated on another node:
 * node-caches.attack.test.ts.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const SECRET = 'product-secret-of-the-secret-attack-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: { 'test-product': SECRET } });
});
afterAll(() => server?.close());

const basic = (clientId: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` });

/** The token endpoint's answer to a client-credentials grant authenticated by `headers` and `form`. */
async function clientCredentials(headers: Record<string, string>, form: Record<string, string> = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ grant_type: 'client_credentials', ...form }).toString(),
  });
  return { status: response.statusCode, error: (response.json() as { error?: string }).error };
}

describe('OAuth client authentication', () => {
  it("takes the app's own secret", async () => {
    expect((await clientCredentials(basic('test-product', SECRET))).status).toBe(200);
  });

  it('refuses secrets of every wrong shape with invalid_client', async () => {
    const wrong = ['', 'x', `${SECRET.slice(0, -1)}x`, SECRET.slice(0, -1), `${SECRET}x`, SECRET.repeat(40), sha256(SECRET), `sha256:${sha256(SECRET)}`, ` ${SECRET}`];
    for (const secret of wrong) {
      const answer = await clientCredentials(basic('test-product', secret));
      expect({ secret: secret.slice(0, 12), ...answer }).toEqual({ secret: secret.slice(0, 12), status: expect.any(Number), error: expect.stringMatching(/^invalid_(client|request)$/) });
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('in the form body (client_secret_post, as documented beside the clients) the same holds: its own secret only', async () => {
    expect((await clientCredentials({}, { client_id: 'test-product', client_secret: SECRET })).status).toBe(200);
    for (const secret of ['', `${SECRET}x`, sha256(SECRET)]) {
      const answer = await clientCredentials({}, { client_id: 'test-product', client_secret: secret });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.error).toMatch(/^invalid_(client|request)$/);
    }
    // An app id alone, as a public app would authenticate: refused for a confidential app.
    expect((await clientCredentials({}, { client_id: 'test-product' })).status).toBeGreaterThanOrEqual(400);
  });

  it('a public app presenting a secret (its own id with any secret, or the product secret) gets no token', async () => {
    for (const secret of ['', SECRET, 'anything']) {
      const answer = await clientCredentials(basic('test-spa', secret));
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.error).toMatch(/^invalid_(client|request)|unauthorized_client$/);
    }
    const posted = await clientCredentials({}, { client_id: 'test-spa', client_secret: SECRET });
    expect(posted.status).toBeGreaterThanOrEqual(400);
    // Without a secret, as it authenticates: still no client-credentials token for a public app.
    expect((await clientCredentials({}, { client_id: 'test-spa' })).status).toBeGreaterThanOrEqual(400);
  });
});

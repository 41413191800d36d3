import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { startProviderTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { productSignIn } from '../../../test/oidc-sign-in';
import { countStatements } from '../../../test/statement-counter';

/**
 * What the token endpoint's hot grants ask of the database, per grant, on a warm node: each
 * statement is a round trip (to PostgreSQL, or to PGlite's worker thread) on every grant, the
 * first thing that separates the portal from oidc-provider on its in-memory adapter.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const SECRET = 'product-secret-of-the-statement-counts-0123';
const CALLBACK = 'http://127.0.0.1:5179/callback';
const GRANTS = 4;
/** The public product page of the test clients: the code flow with PKCE, client_id only. */
const SPA = 'test-spa';
const SPA_CALLBACK = 'http://127.0.0.1:5179/spa/callback';

let server: TestServer;
let product: oidc.Configuration;
const basic = `Basic ${Buffer.from(`test-product:${SECRET}`).toString('base64')}`;

const tokenRequest = (path: string, values: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, body: new URLSearchParams(values) });

/**
 * Statements per grant over GRANTS grants one after another, after one unmeasured grant
 * (statements prepared, caches warm), less the node's timers that may fall in the window
 * (the database's readiness ping, the webhook deliveries' poller, the security alerts' sender,
 * which new sign-ins set to work). Two windows, the fewer
 * statements counting: another of the node's jobs may run in one (a loaded machine makes a
 * window long), hardly in both.
 */
async function perGrant(grant: () => Promise<void>): Promise<{ perGrant: number; texts: string[] }> {
  await grant();
  const window = () =>
    countStatements(
      async () => {
        for (let i = 0; i < GRANTS; i++) await grant();
      },
      { ignore: /^select 1$|webhook_deliveries|security_alerts/ },
    );
  const [first, second] = [await window(), await window()];
  const counted = second.count < first.count ? second : first;
  return { perGrant: counted.count / GRANTS, texts: counted.texts };
}

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: { 'test-product': SECRET } });
  product = await oidc.discovery(new URL(server.url), 'test-product', {}, oidc.ClientSecretBasic(SECRET), { execute: [oidc.allowInsecureRequests] });
});
afterAll(async () => {
  await server?.close();
});

async function signedInTokens(): Promise<{ refresh: string; access: string }> {
  const tokens = await productSignIn(server, product, CALLBACK, 'statements');
  return { refresh: tokens.refresh_token!, access: tokens.access_token };
}

describe('statements per grant on a warm node', () => {
  it('a refresh grant of a token this node issued makes 1 statement: consume it and store the new tokens (the node keeps the token it issued with its grant; the dashboard counts grants at most once a second)', async () => {
    let { refresh } = await signedInTokens();
    const statements = await perGrant(async () => {
      const response = await tokenRequest('/oidc/token', { grant_type: 'refresh_token', refresh_token: refresh });
      expect(response.status).toBe(200);
      refresh = ((await response.json()) as { refresh_token: string }).refresh_token;
    });
    expect(statements.perGrant, statements.texts.join('\n')).toBeLessThanOrEqual(1.5);
  });

  it('a signed-in code round trip makes at most 5 statements: the authorization (the remembered grant, then its writes with the portal session link) and the code grant', async () => {
    const portalSession = await identityClient(server.app, server.database).registeredUser(`statements-trip-${Date.now()}@example.com`, 'plum-orbit-cactus-917');
    const statements = await perGrant(async () => {
      // A new browser each time, signed in to the portal only: a new provider session, as the bench's round trips.
      const browser = new TestBrowser(server.url);
      browser.setCookie('auth_token', portalSession);
      const verifier = oidc.randomPKCECodeVerifier();
      const authorize = new URL('/o/authorize', server.url);
      authorize.search = new URLSearchParams({
        client_id: SPA,
        redirect_uri: SPA_CALLBACK,
        response_type: 'code',
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const { url: callback } = await browser.walk(authorize.href);
      const code = callback.searchParams.get('code');
      expect(code, callback.href).toBeTruthy();
      const tokens = await fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: SPA_CALLBACK, code_verifier: verifier, client_id: SPA }),
      });
      expect(tokens.status).toBe(200);
    });
    expect(statements.perGrant, statements.texts.join('\n')).toBeLessThanOrEqual(5);
  });

  it('an introspection of a token the node has just read makes no statement: the token and its grant are kept (token-cache.ts)', async () => {
    const { access } = await signedInTokens();
    const statements = await perGrant(async () => {
      const response = await tokenRequest('/oidc/token/introspection', { token: access });
      expect(((await response.json()) as { active: boolean }).active).toBe(true);
    });
    expect(statements.perGrant, statements.texts.join('\n')).toBe(0);
  });

  it('an introspection of a token the node has not seen makes 1 statement: the token under each model, with its grant', async () => {
    // Access tokens of one sign-in, each from a refresh grant: stored, never read by this node.
    let { refresh } = await signedInTokens();
    const fresh: Array<{ access: string }> = [];
    for (let i = 0; i < GRANTS * 2 + 1; i++) {
      const response = await tokenRequest('/oidc/token', { grant_type: 'refresh_token', refresh_token: refresh });
      const body = (await response.json()) as { refresh_token: string; access_token: string };
      refresh = body.refresh_token;
      fresh.push({ access: body.access_token });
    }
    const statements = await perGrant(async () => {
      const response = await tokenRequest('/oidc/token/introspection', { token: fresh.pop()!.access });
      expect(((await response.json()) as { active: boolean }).active).toBe(true);
    });
    expect(statements.perGrant, statements.texts.join('\n')).toBeLessThanOrEqual(1);
  });

  it('a client-credentials token is not kept as it is issued (a burst of them would push out the tokens APIs introspect): its first introspection reads it, the next ones do not', async () => {
    const issued: string[] = [];
    // One for each introspection of the two windows and their warm-up, and one kept.
    for (let i = 0; i < GRANTS * 2 + 2; i++) {
      const response = await tokenRequest('/oidc/token', { grant_type: 'client_credentials' });
      issued.push(((await response.json()) as { access_token: string }).access_token);
    }
    const introspect = async (token: string) => {
      const response = await tokenRequest('/oidc/token/introspection', { token });
      expect(((await response.json()) as { active: boolean }).active).toBe(true);
    };
    const first = await perGrant(() => introspect(issued.pop()!));
    expect(first.perGrant, first.texts.join('\n')).toBeGreaterThanOrEqual(1);
    const kept = issued.pop()!;
    await introspect(kept);
    const again = await perGrant(() => introspect(kept));
    expect(again.perGrant, again.texts.join('\n')).toBe(0);
  });

  it('a client-credentials grant makes 1 statement, storing the token: the dashboard counts grants at most about once a second (its counter)', async () => {
    const statements = await perGrant(async () => {
      const response = await tokenRequest('/oidc/token', { grant_type: 'client_credentials' });
      expect(response.status).toBe(200);
    });
    // A window may hold the end of the counter's interval: its grants' count, at most 2 statements (the first count of an interval and the rest).
    expect(statements.perGrant, statements.texts.join('\n')).toBeLessThanOrEqual(1 + 2 / GRANTS);
  });
});

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { oidcModels, users } from '../../db/schema';
import { confidentialClient, startProviderTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { columnsOf } from './model-rows';

/**
 * Introspection answers a person's token to its own product's back end only. A product is a
 * service scope; `whitehub` is one (CyStack Platform) and also the name of another family's
 * theme (WhiteHub: Bug Bounty, News), so reading the caller's scope as a family let CyStack
 * Platform's back end read every Bug Bounty person's token. (The products' API path
 * `whitehub_platform` does take the family's tokens: it is News's only path.)
 */
const CLIENTS = path.join(tmpdir(), `introspection-audience-clients-${process.pid}.json`);
const SECRETS = { 'platform-backend': 'platform-secret-0123456789abcdef0123456789', 'bounty-backend': 'bounty-secret-0123456789abcdef0123456789ab' };
writeFileSync(
  CLIENTS,
  JSON.stringify({
    clients: [
      { client_id: 'platform-backend', client_name: 'CyStack Platform', service_scope: 'whitehub', redirect_uris: { test: ['http://127.0.0.1:5190/cb'] } },
      { client_id: 'bounty-app', client_name: 'WhiteHub Bug Bounty', service_scope: 'bugbounty', redirect_uris: { test: ['http://127.0.0.1:5191/cb'] } },
      { client_id: 'bounty-backend', client_name: 'WhiteHub Bug Bounty', service_scope: 'bugbounty', redirect_uris: { test: ['http://127.0.0.1:5192/cb'] } },
      { client_id: 'news-app', client_name: 'WhiteHub News', service_scope: 'whitehub_news', redirect_uris: { test: ['http://127.0.0.1:5193/cb'] } },
    ],
  }),
);

let server: TestServer;
beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS, secrets: SECRETS });
});
afterAll(() => server?.close());

/** A live access token of `clientId` for a new person, stored as the provider stores it. */
async function personsToken(clientId: string, label: string): Promise<string> {
  const email = `${label}@example.com`;
  await identityClient(server.app, server.database).registeredUser(email);
  const [user] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = new Date((now + 3600) * 1000);
  const grant = { jti: `grant-${label}`, kind: 'Grant', accountId: user!.id, clientId, openid: { scope: 'openid email' }, iat: now, exp: now + 3600 };
  const token = { jti: `at-${label}-0123456789abcdef`, kind: 'AccessToken', accountId: user!.id, clientId, grantId: grant.jti, scope: 'openid email', iat: now, exp: now + 3600, gty: 'authorization_code' };
  await server.database.db.insert(oidcModels).values([
    { ...columnsOf('Grant', grant.jti, grant), model: 'Grant', payload: grant, expiresAt },
    { ...columnsOf('AccessToken', token.jti, token), model: 'AccessToken', payload: token, expiresAt },
  ]);
  return token.jti;
}

it("answers a Bug Bounty person's token to Bug Bounty's back end, and to CyStack Platform's (service scope `whitehub`, the WhiteHub theme's name) as to a token that does not exist", async () => {
  const token = await personsToken('bounty-app', 'hunter');
  const own = await confidentialClient(server, 'bounty-backend', SECRETS['bounty-backend']);
  expect(await oidc.tokenIntrospection(own, token)).toMatchObject({ active: true, client_id: 'bounty-app' });
  const platform = await confidentialClient(server, 'platform-backend', SECRETS['platform-backend']);
  expect(await oidc.tokenIntrospection(platform, token)).toEqual({ active: false });
});

it("takes a WhiteHub News person's token on the family's path, its only one, and on no other product's", async () => {
  const token = await personsToken('news-app', 'reader');
  const me = (product: string) => server.app.inject({ method: 'GET', url: `/v3/${product}_platform/pm/users/me`, headers: { authorization: `Bearer ${token}` } });
  expect((await me('whitehub')).statusCode).toBe(200);
  for (const product of ['bugbounty', 'locker', 'pwdmanager']) expect((await me(product)).statusCode, product).toBe(401);
});

/**
 * The `oidc` section's reference: bare oidc-provider (the portal's own version, from
 * node_modules) with its in-memory adapter, configured as the portal configures it for the
 * grants the section measures (PKCE, rotated refresh tokens, client credentials,
 * introspection, RS256 ID tokens, the same routes and lifetimes), on node:http. No database,
 * no Fastify, no logs, no sessions of a portal: whatever the portal does beyond this is its
 * own cost. Its login is automatic: the interaction signs in one fixed account, so a code
 * round trip makes the same five requests as against the portal.
 */
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const ACCOUNT = 'bench-account';

const signingKey = (alg: 'RS256' | 'ES256', kid: string): JsonWebKey => {
  const pair = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...pair.privateKey.export({ format: 'jwk' }), alg, use: 'sig', kid };
};

const configuration: Configuration = {
  clients: [
    {
      client_id: process.env.BARE_PUBLIC_CLIENT ?? 'pwdmanager',
      redirect_uris: [process.env.BARE_REDIRECT_URI ?? 'https://locker.io/auth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    {
      client_id: process.env.BARE_CONFIDENTIAL_CLIENT ?? 'secret',
      client_secret: process.env.BARE_CONFIDENTIAL_SECRET ?? 'bench',
      redirect_uris: ['https://secrets.locker.io/auth/callback'],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [signingKey('RS256', 'bench-rs256'), signingKey('ES256', 'bench-es256')] as NonNullable<Configuration['jwks']>['keys'] },
  cookies: { keys: ['bare oidc-provider bench cookie key'] },
  findAccount: (_ctx, sub) => ({
    accountId: sub,
    claims: () => ({ sub, email: 'bench@example.com', email_verified: true, name: 'Bench Person', locale: 'en' }),
  }),
  claims: { openid: ['sub', 'acr', 'amr', 'auth_time'], email: ['email', 'email_verified'], profile: ['name', 'locale'] },
  conformIdTokenClaims: false,
  responseTypes: ['code'],
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    userinfo: { enabled: true },
  },
  routes: { authorization: '/o/authorize', token: '/oidc/token', jwks: '/oidc/jwks', userinfo: '/oidc/userinfo', introspection: '/oidc/token/introspection', revocation: '/oidc/token/revocation' },
  interactions: { url: (_ctx, interaction) => `/o/interaction/${interaction.uid}` },
  // As the portal's first-party clients: no consent, the grant covers what is asked.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({ accountId: ctx.oidc.session!.accountId!, clientId: ctx.oidc.client!.clientId });
    grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
    await grant.save();
    return grant;
  },
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: () => true,
  expiresWithSession: async () => false,
  ttl: { AccessToken: 60 * 60, AuthorizationCode: 60, ClientCredentials: 10 * 60, Grant: 365 * 86400, IdToken: 60 * 60, Interaction: 60 * 60, RefreshToken: 30 * 86400, Session: 30 * 86400 },
};

const provider = new Provider(issuer, configuration);
const callback = provider.callback();

createServer((request, response) => {
  if (request.url === '/healthz') {
    response.setHeader('content-type', 'application/json');
    return void response.end('{"status":"ok"}');
  }
  if (request.url?.startsWith('/o/interaction/')) {
    return void provider
      .interactionFinished(request, response, { login: { accountId: ACCOUNT, amr: ['pwd'], acr: 'urn:portal:loa:1', remember: true } }, { mergeWithLastSubmission: false })
      .catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
  }
  return void callback(request, response);
}).listen(port, '127.0.0.1');

// The bench stops it with SIGTERM: an exit of its own, so that a profile it was started with (--cpu-prof) is written.
process.on('SIGTERM', () => process.exit(0));

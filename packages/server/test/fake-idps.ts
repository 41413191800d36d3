import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** The person the fake provider says is signed in, with the claims it asserts. */
export type IdpPerson = { sub: string; email?: string; email_verified?: boolean | string; name?: string } & Record<string, unknown>;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * A real OpenID Connect provider (a second `oidc-provider`) standing in for Google, Microsoft,
 * Apple, VinCSS or a company's IdP: discovery, PKCE, signed ID tokens with the claims the test
 * sets. Its login and consent are answered at once for `signInAs`'s person.
 */
export async function startOidcIdp(client: { clientId: string; clientSecret: string; redirectUris: string[] }) {
  let person: IdpPerson = { sub: 'nobody' };
  const server = createServer();
  const issuer = await listen(server);
  const configuration: Configuration = {
    clients: [{ client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: client.redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'xms_edov'] },
    // The portal reads who signed in from the ID token, as it does with Google or Apple.
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => (sub === person.sub ? { accountId: sub, claims: async () => ({ ...person }) } : undefined),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [{ ...(await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey)), kid: 'fake-idp', use: 'sig', alg: 'RS256' }] as never },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx, error) => console.error('fake IdP', error));
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: person.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: person.sub, clientId: client.clientId });
    grant.addOIDCScope('openid email profile');
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    void callback(req, res);
  });
  return {
    issuer,
    signInAs(next: IdpPerson) {
      person = next;
    },
    close: () => close(server),
  };
}

/**
 * GitHub's or Facebook's documented OAuth 2.0 endpoints, small: the authorization page answers
 * at once for `signInAs`'s person, the token endpoint checks the client, the code (once) and
 * the PKCE verifier, and the profile API answers for the token it issued.
 */
export async function startOAuth2Idp(kind: 'github' | 'facebook', client: { clientId: string; clientSecret: string }) {
  let person: { id: string; name: string; login?: string; email?: string; verified?: boolean } = { id: '0', name: '' };
  const codes = new Map<string, { challenge: string; redirectUri: string; person: typeof person }>();
  const tokens = new Map<string, typeof person>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://idp');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/authorize') {
      const code = randomBytes(12).toString('hex');
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri: url.searchParams.get('redirect_uri') ?? '', person });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
        const [id, secret] = basic ? basic.split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
        if (id !== client.clientId || secret !== client.clientSecret) return json(401, { error: 'invalid_client' });
        const code = form.get('code') ?? '';
        const issued = codes.get(code);
        codes.delete(code);
        const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
        if (!issued || issued.challenge !== challenge || issued.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
        const token = randomBytes(16).toString('hex');
        tokens.set(token, issued.person);
        return json(200, { access_token: token, token_type: 'bearer', scope: kind === 'github' ? 'read:user,user:email' : 'email' });
      });
      return;
    }
    const owner = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!owner) return json(401, { message: 'Bad credentials' });
    if (kind === 'github' && url.pathname === '/user') return json(200, { id: Number(owner.id), login: owner.login ?? 'octo', name: owner.name || null, email: null });
    if (kind === 'github' && url.pathname === '/user/emails') {
      return json(200, owner.email ? [{ email: 'other@example.net', primary: false, verified: true }, { email: owner.email, primary: true, verified: owner.verified ?? false }] : []);
    }
    if (kind === 'facebook' && url.pathname === '/me') return json(200, { id: owner.id, name: owner.name, ...(owner.email ? { email: owner.email } : {}) });
    return json(404, { message: 'Not Found' });
  });
  const base = await listen(server);
  return {
    settings: { AUTHORIZATION_URL: `${base}/authorize`, TOKEN_URL: `${base}/token`, API_URL: base },
    signInAs(next: typeof person) {
      person = next;
    },
    close: () => close(server),
  };
}

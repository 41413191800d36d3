import { createServer, type Server } from 'node:http';
import * as oidc from 'openid-client';

/**
 * A small product for the OIDC specs: pages served on http://127.0.0.1:5179 with an
 * openid-client back end. `/start?app=<name>` sends the browser to the portal's /o/authorize
 * (code + PKCE + state + nonce); `/callback` redeems the code and shows who signed in (or the
 * error); `/refresh?app=<name>` tries the stored refresh token; `/revoke?app=<name>` revokes
 * it (RFC 7009, as an app does when the person signs out of it); `/logout?app=<name>` sends
 * the browser to the portal's RP-initiated logout, back to `/` after; `/backchannel-logout`
 * records the logout tokens the portal sends. `&device=<name>` keeps one sign-in per browser
 * (the tokens are the product's, kept by device name, not in the browser).
 */
export const PRODUCT_ORIGIN = 'http://127.0.0.1:5179';
export const PRODUCT_CALLBACK = `${PRODUCT_ORIGIN}/callback`;

interface App {
  config: oidc.Configuration;
}

/** One browser's sign-in to one app. */
interface SignIn {
  refreshToken?: string;
  idToken?: string;
}

export interface TestProduct {
  /** Registers a client of the portal as one of the product's apps. */
  addApp(name: string, clientId: string, clientSecret?: string): Promise<void>;
  logoutTokens: string[];
  close(): Promise<void>;
}

const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Test product</title></head><body>${body}</body></html>`;

export async function startTestProduct(portalUrl: string): Promise<TestProduct> {
  const apps = new Map<string, App>();
  const signIns = new Map<string, SignIn>();
  const pending = new Map<string, { app: string; device: string; verifier: string; nonce: string }>();
  const signInOf = (app: string, device: string) => {
    const key = `${app}:${device}`;
    if (!signIns.has(key)) signIns.set(key, {});
    return signIns.get(key)!;
  };
  const logoutTokens: string[] = [];

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', PRODUCT_ORIGIN);
    const send = (status: number, body: string) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page(body));
    const device = url.searchParams.get('device') ?? '';
    try {
      if (url.pathname === '/start') {
        const name = url.searchParams.get('app') ?? '';
        const app = apps.get(name);
        if (!app) return send(404, 'no such app');
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        pending.set(state, { app: name, device, verifier, nonce });
        const target = oidc.buildAuthorizationUrl(app.config, {
          redirect_uri: PRODUCT_CALLBACK,
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
          // `/start?app=product&acr=urn:portal:loa:2` asks for two factors (step-up).
          ...(url.searchParams.get('acr') ? { acr_values: url.searchParams.get('acr')! } : {}),
        });
        return response.writeHead(302, { location: target.href }).end();
      }
      if (url.pathname === '/callback') {
        const flow = pending.get(url.searchParams.get('state') ?? '');
        if (!flow) return send(400, '<h1>Unknown state</h1>');
        pending.delete(url.searchParams.get('state')!);
        if (url.searchParams.get('error')) return send(200, `<h1 data-testid="error">Not signed in: ${url.searchParams.get('error')}</h1>`);
        const app = apps.get(flow.app)!;
        const tokens = await oidc.authorizationCodeGrant(app.config, url, { pkceCodeVerifier: flow.verifier, expectedState: url.searchParams.get('state')!, expectedNonce: flow.nonce });
        Object.assign(signInOf(flow.app, flow.device), { refreshToken: tokens.refresh_token, idToken: tokens.id_token });
        const claims = tokens.claims()!;
        return send(200, `<h1 data-testid="signed-in">Signed in to ${flow.app} as ${String(claims.email)}</h1><p data-testid="amr">${(claims.amr as string[] | undefined)?.join(' ') ?? ''}</p><p data-testid="acr">${String(claims.acr ?? '')}</p>`);
      }
      if (url.pathname === '/refresh') {
        const name = url.searchParams.get('app') ?? '';
        const app = apps.get(name);
        const signIn = signInOf(name, device);
        if (!app || !signIn.refreshToken) return send(400, '<h1 data-testid="refresh">No refresh token</h1>');
        try {
          const tokens = await oidc.refreshTokenGrant(app.config, signIn.refreshToken);
          signIn.refreshToken = tokens.refresh_token;
          return send(200, '<h1 data-testid="refresh">Refreshed</h1>');
        } catch (error) {
          return send(200, `<h1 data-testid="refresh">Refresh failed: ${(error as { error?: string }).error ?? 'error'}</h1>`);
        }
      }
      if (url.pathname === '/revoke') {
        const name = url.searchParams.get('app') ?? '';
        const signIn = signInOf(name, device);
        if (!apps.has(name) || !signIn.refreshToken) return send(400, '<h1 data-testid="revoke">No refresh token</h1>');
        await oidc.tokenRevocation(apps.get(name)!.config, signIn.refreshToken);
        return send(200, '<h1 data-testid="revoke">Revoked</h1>');
      }
      if (url.pathname === '/logout') {
        const name = url.searchParams.get('app') ?? '';
        const signIn = signInOf(name, device);
        if (!apps.has(name) || !signIn.idToken) return send(400, '<h1 data-testid="logout">Not signed in</h1>');
        const target = oidc.buildEndSessionUrl(apps.get(name)!.config, { id_token_hint: signIn.idToken, post_logout_redirect_uri: `${PRODUCT_ORIGIN}/` });
        return response.writeHead(302, { location: target.href }).end();
      }
      if (url.pathname === '/backchannel-logout' && request.method === 'POST') {
        let body = '';
        for await (const chunk of request) body += chunk;
        const token = new URLSearchParams(body).get('logout_token');
        if (token) logoutTokens.push(token);
        return response.writeHead(200).end();
      }
      return send(200, '<h1 data-testid="product-home">Test product</h1>');
    } catch (error) {
      return send(500, `<h1 data-testid="error">${String(error)}</h1>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(5179, '127.0.0.1', resolve));

  return {
    logoutTokens,
    async addApp(name, clientId, clientSecret) {
      const config = await oidc.discovery(new URL(portalUrl), clientId, {}, clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      apps.set(name, { config });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

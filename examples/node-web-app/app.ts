import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as oidc from 'openid-client';

/**
 * A product's web app that signs people in through the portal with openid-client: the
 * authorization code flow with PKCE, state and nonce; the ID token's claims on its page;
 * a refresh of the tokens; and signing out through the portal (RP-initiated logout), back
 * to the app. Plain node:http, so nothing but openid-client stands between you and the flow.
 */
export interface WebAppOptions {
  /** The portal's address (its issuer), e.g. https://id.example.com */
  portalUrl: string;
  /** The app's registration at the portal. */
  clientId: string;
  clientSecret: string;
  /** Where this app is reached; its /callback and / are registered as redirect and post-logout URIs. */
  appUrl: string;
  /**
   * A product API to call with the person's access token (examples/product-api). The app asks
   * the portal for a token meant for that API (RFC 8707 `resource`) with the API's scope.
   */
  api?: { url: string; resource: string; scope: string };
}

/** What the app keeps for one browser, on the server (the browser holds only a random id). */
interface Session {
  pending?: { state: string; nonce: string; verifier: string };
  tokens?: { idToken: string; accessToken: string; refreshToken?: string; expiresAt: number };
  claims?: Record<string, unknown>;
  notice?: string;
}

const COOKIE = 'example_session';

export async function createWebApp(options: WebAppOptions): Promise<Server> {
  const portal = new URL(options.portalUrl);
  // Discovery reads the portal's /.well-known/openid-configuration (endpoints, keys, algorithms).
  // Plain http is allowed only for a portal on this machine (development and tests).
  const config = await oidc.discovery(portal, options.clientId, undefined, oidc.ClientSecretBasic(options.clientSecret), {
    execute: portal.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
  });
  const callbackUrl = new URL('/callback', options.appUrl).href;
  const homeUrl = new URL('/', options.appUrl).href;
  const tokenParameters: Record<string, string> = options.api ? { resource: options.api.resource } : {};
  const sessions = new Map<string, Session>();

  function sessionOf(request: IncomingMessage, response: ServerResponse): Session {
    const id = /(?:^|;\s*)example_session=([\w-]{43})/.exec(request.headers.cookie ?? '')?.[1];
    if (id && sessions.has(id)) return sessions.get(id)!;
    const fresh = randomBytes(32).toString('base64url');
    sessions.set(fresh, {});
    // SameSite=Lax: the browser does not send the cookie with another site's form posts, so
    // no other site can make this app refresh or sign out (no CSRF token needed for them).
    const secure = options.appUrl.startsWith('https:') ? '; Secure' : '';
    response.setHeader('set-cookie', `${COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Lax${secure}`);
    return sessions.get(fresh)!;
  }

  async function signIn(session: Session, response: ServerResponse) {
    const verifier = oidc.randomPKCECodeVerifier();
    session.pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier };
    const target = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: ['openid email profile offline_access', options.api?.scope].filter(Boolean).join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: session.pending.state,
      nonce: session.pending.nonce,
      ...tokenParameters,
    });
    redirect(response, target.href);
  }

  async function callback(session: Session, url: URL, response: ServerResponse) {
    const pending = session.pending;
    session.pending = undefined;
    if (!pending) return redirect(response, homeUrl);
    if (url.searchParams.get('error')) {
      session.notice = `The portal did not sign you in: ${url.searchParams.get('error')}`;
      return redirect(response, homeUrl);
    }
    // Checks the state, redeems the code with the PKCE verifier, and validates the ID token
    // (signature from the portal's JWKS, issuer, audience, nonce, expiry).
    const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce }, tokenParameters);
    keep(session, tokens);
    session.claims = tokens.claims();
    redirect(response, homeUrl);
  }

  async function refresh(session: Session, response: ServerResponse) {
    if (!session.tokens?.refreshToken) return redirect(response, homeUrl);
    try {
      // The portal rotates refresh tokens: each refresh answers a new one, and the old one is spent.
      keep(session, await oidc.refreshTokenGrant(config, session.tokens.refreshToken, tokenParameters));
      session.notice = 'Tokens refreshed.';
    } catch (error) {
      // Revoked access, an ended portal session or a reused token: the person signs in again.
      session.tokens = undefined;
      session.claims = undefined;
      session.notice = `Refresh refused (${(error as { error?: string }).error ?? 'error'}): sign in again.`;
    }
    redirect(response, homeUrl);
  }

  function signOut(session: Session, response: ServerResponse) {
    const idToken = session.tokens?.idToken;
    session.tokens = undefined;
    session.claims = undefined;
    if (!idToken) return redirect(response, homeUrl);
    // Ends the person's portal session too, then the portal sends the browser back here.
    redirect(response, oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: homeUrl }).href);
  }

  async function callApi(session: Session, response: ServerResponse) {
    if (!options.api || !session.tokens) return redirect(response, homeUrl);
    const answer = await fetch(options.api.url, { headers: { authorization: `Bearer ${session.tokens.accessToken}` } });
    session.notice = `The API answered ${answer.status}: ${await answer.text()}`;
    redirect(response, homeUrl);
  }

  function keep(session: Session, tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers) {
    session.tokens = {
      idToken: tokens.id_token ?? session.tokens?.idToken ?? '',
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? session.tokens?.refreshToken,
      expiresAt: Date.now() + (tokens.expiresIn() ?? 0) * 1000,
    };
  }

  function home(session: Session, response: ServerResponse) {
    const notice = session.notice ? `<p role="status">${escape(session.notice)}</p>` : '';
    session.notice = undefined;
    if (!session.claims || !session.tokens) {
      return html(response, `<h1>Example app</h1>${notice}<p>You are not signed in.</p><p><a href="/login">Sign in with the portal</a></p>`);
    }
    const rows = Object.entries(session.claims)
      .map(([name, value]) => `<tr><th scope="row">${escape(name)}</th><td>${escape(JSON.stringify(value))}</td></tr>`)
      .join('');
    const apiButton = options.api ? '<form method="post" action="/call-api"><button>Call the product API</button></form>' : '';
    html(
      response,
      `<h1>Signed in as ${escape(String(session.claims.email ?? session.claims.sub))}</h1>${notice}
      <table><caption>Claims of your ID token</caption>${rows}</table>
      <p>Access token valid until <time>${new Date(session.tokens.expiresAt).toISOString()}</time></p>
      <form method="post" action="/refresh"><button>Refresh tokens</button></form>${apiButton}
      <form method="post" action="/logout"><button>Sign out</button></form>`,
    );
  }

  return createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', options.appUrl);
    const session = sessionOf(request, response);
    const route = `${request.method} ${url.pathname}`;
    try {
      if (route === 'GET /') return home(session, response);
      if (route === 'GET /login') return await signIn(session, response);
      if (route === 'GET /callback') return await callback(session, url, response);
      if (route === 'POST /refresh') return await refresh(session, response);
      if (route === 'POST /call-api') return await callApi(session, response);
      if (route === 'POST /logout') return signOut(session, response);
      response.writeHead(404).end();
    } catch (error) {
      // A failed check (state, nonce, signature...) is shown as such, never as a signed-in page.
      session.notice = `Sign-in failed: ${(error as Error).message}`;
      redirect(response, homeUrl);
    }
  });
}

function redirect(response: ServerResponse, location: string) {
  // 303: a form post's answer is followed with a GET.
  response.writeHead(303, { location }).end();
}

function html(response: ServerResponse, body: string) {
  response
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Example app</title></head><body><main>${body}</main></body></html>`);
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

import { API_KEY_PATTERN, type ApiKeyScope } from '@portal/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { installEndpointGuards } from '../../platform/http/route';
import { AppError } from '../../platform/errors';
import { sessionCookieName } from './cookies';
import type { CachedIdentity } from './identity-cache';
import type { SessionRow } from './queries';
import type { SessionService } from './service';
import type { UserRow } from '../users';


/** A browser or app session. */
export interface Authentication {
  user: UserRow;
  session: SessionRow;
  token: string;
}

/** An API key (`Authorization: Bearer pk_...`): the user it acts for and what it may do. */
export interface ApiKeyAuthentication {
  user: UserRow;
  apiKey: { id: string; scopes: readonly ApiKeyScope[] };
}

/** What the guard needs from the oauth module: the live access token's person and client, if it was issued to `product`. */
export interface AccessTokenAuthenticator {
  /** The person and client of a live access token issued to `product`; null for anything else (unknown, expired, revoked, another product's). */
  authenticate(token: string, product: string): Promise<AccessTokenAuthentication | null>;
}

/** An OpenID Connect access token a product's app presents on that product's API. */
export interface AccessTokenAuthentication {
  user: UserRow;
  clientId: string;
}

/** Whoever called a route guarded by requireAuth: a session, or an API key with the route's scope. */
export interface Principal {
  user: UserRow;
  /** Set when the caller is a product's access token (routes with `productToken`). */
  client?: string;
  /** Set when the caller is an API key (the marker routes check); null for a session. */
  apiKey: ApiKeyAuthentication['apiKey'] | null;
  /** Set when the caller is a session. */
  session: SessionRow | null;
}

/** What the guard needs from the api-keys module: a live key and its user, or null. */
export interface ApiKeyAuthenticator {
  authenticate(key: string): Promise<ApiKeyAuthentication | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session; set by `requireAuth` / `requireSession` / `optionalAuth`. Never set for an API key. */
    auth: Authentication | null;
    /** The caller's API key; set only by `requireAuth` on a route that declares a scope the key has. */
    apiKeyAuth: ApiKeyAuthentication | null;
    /** The caller's product access token; set only by the `product` endpoint guard. */
    accessTokenAuth: AccessTokenAuthentication | null;
  }
  interface FastifyInstance {
    /**
     * A session, or an API key when the route declares `config: { scope }` and the key has
     * that scope (403 api_keys.scope_missing otherwise). Routes without a scope take sessions only.
     */
    requireAuth: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
    /**
     * A browser or app session only: for managing keys, password, second factors, passkeys,
     * sessions and deletion, which an API key must never reach (403).
     */
    requireSession: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
    optionalAuth: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
  }
  interface FastifyContextConfig {
    /** The API-key scope that lets a key call this route (requireAuth); absent: sessions only. */
    scope?: ApiKeyScope;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

/**
 * A product's back end calling with its client-credentials token (`Authorization: Bearer`), as
 * `clients` knows it; no token, a person's token or an unknown one: 401. What the client may do
 * is the caller's to check.
 */
export async function productClient<Client>(request: FastifyRequest, clients: { authenticate(token: string): Promise<Client | null> }): Promise<Client> {
  const token = bearer(request);
  const client = token ? await clients.authenticate(token) : null;
  if (!client) throw new AppError('unauthorized');
  return client;
}

/** The bearer token of a request: the Authorization header first, then the session cookie (by its one name for this host). */
export function presentedToken(request: FastifyRequest, config: Config): string | undefined {
  return bearer(request) ?? (request.cookies[sessionCookieName(request, config)] || undefined);
}

/** Whether a request presents an API key: a bearer token of a key's whole shape, not its prefix alone (API_KEY_PATTERN says why). */
export function presentsApiKey(request: FastifyRequest): boolean {
  const token = bearer(request);
  return token !== undefined && API_KEY_PATTERN.test(token);
}

/** Accounts scheduled for deletion (or already purged) have no live credentials. */
function usable(user: UserRow): boolean {
  // An account an operator locked: every session, API key and token of it, until unlocked.
  return !user.deletionRequestedAt && !user.purgedAt && !user.lockedAt;
}

type Done = (error?: Error) => void;

/** The session as the request sees it: only for accounts that may still sign in. */
function accepted(found: CachedIdentity | null, token: string): Authentication | null {
  return found && usable(found.user) ? { session: found.session, user: found.user, token } : null;
}

/**
 * Runs `then` on a value that is here now (a session from memory: no promise on the hottest
 * path) or comes later (from the database), and hands a rejection to Fastify's `done`.
 */
function whenResolved<T>(value: T | Promise<T>, then: (resolved: T) => void, done: Done): void {
  if (value instanceof Promise) value.then(then, done);
  else then(value);
}

/**
 * Route pre-handlers that resolve the caller's session or API key. Resolution is per route,
 * not a global hook, so static files and public calls never touch the session table.
 *
 * They take Fastify's `done` rather than returning promises: a session served from memory
 * resolves in the same tick, and this is the hottest path of the API (measured in bench/).
 */
export function installAuthGuard(
  app: FastifyInstance,
  config: Config,
  sessions: SessionService,
  apiKeys?: ApiKeyAuthenticator,
  accessTokens?: AccessTokenAuthenticator,
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('apiKeyAuth', null);
  app.decorateRequest('accessTokenAuth', null);
  // What a signed-in caller is answered is theirs alone: no browser or shared cache keeps it.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.auth || request.apiKeyAuth || request.accessTokenAuth) reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  const resolveSession = (request: FastifyRequest): Authentication | null | Promise<Authentication | null> => {
    const token = presentedToken(request, config);
    if (!token || token.length > 512 || API_KEY_PATTERN.test(token)) return null;
    // Reads may be answered from memory; anything that may change the account reads the database.
    const found = sessions.authenticate(token, !READ_METHODS.has(request.method));
    return found instanceof Promise ? found.then((live) => accepted(live, token)) : accepted(found, token);
  };

  const requireSessionOf = (request: FastifyRequest, done: Done): void =>
    whenResolved(
      resolveSession(request),
      (auth) => {
        request.auth = auth;
        done(auth ? undefined : new AppError('unauthorized'));
      },
      done,
    );

  const authenticateApiKey = async (request: FastifyRequest): Promise<void> => {
    const key = bearer(request)!;
    const found = key.length <= 512 && apiKeys ? await apiKeys.authenticate(key) : null;
    if (!found || !usable(found.user)) throw new AppError('unauthorized');
    const scope = request.routeOptions.config.scope;
    if (!scope || !found.apiKey.scopes.includes(scope)) throw new AppError('api_keys.scope_missing', {}, scope ? { scope } : undefined);
    request.apiKeyAuth = found;
  };

  app.decorate('optionalAuth', (request: FastifyRequest, _reply: FastifyReply, done: Done) =>
    whenResolved(
      resolveSession(request),
      (auth) => {
        request.auth = auth;
        done();
      },
      done,
    ),
  );
  app.decorate('requireAuth', (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
    if (presentsApiKey(request)) authenticateApiKey(request).then(() => done(), done);
    else requireSessionOf(request, done);
  });
  app.decorate('requireSession', (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
    if (presentsApiKey(request)) done(new AppError('forbidden'));
    else requireSessionOf(request, done);
  });
  // A sensitive change (a declaration's recentAuth): the session proved a factor a few minutes
  // ago at most; for `second_step`, on an account with two-step verification, that factor was
  // the second step (details.second_step tells the web app's dialog to ask for it).
  const recentProof =
    (secondStep: boolean) =>
    (request: FastifyRequest, _reply: FastifyReply, done: Done): void => {
      const session = request.auth?.session;
      if (!session) return done(new AppError('forbidden'));
      const needsSecondStep = secondStep && Boolean(request.auth?.user.twoFactorMethod);
      sessions
        .provedWithin(session, config.REAUTH_MAX_AGE_SECONDS, needsSecondStep)
        .then((fresh) => done(fresh ? undefined : new AppError('auth.reauth_required', {}, needsSecondStep ? { second_step: true } : undefined)), done);
    };
  const recent = recentProof(false);
  const recentSecondStep = recentProof(true);
  // A product's route: a session or API key as requireAuth, else an access token whose
  // audience is the product of the path (another product's token is refused: 401).
  const productGuard = (request: FastifyRequest, _reply: FastifyReply, done: Done): void => {
    const token = bearer(request);
    if (!token || presentsApiKey(request) || !accessTokens) return app.requireAuth(request, _reply, done);
    whenResolved(
      resolveSession(request),
      (auth) => {
        if (auth) {
          request.auth = auth;
          return done();
        }
        const product = (request.params as { product?: unknown }).product;
        if (typeof product !== 'string' || token.length > 512) return done(new AppError('unauthorized'));
        accessTokens.authenticate(token, product).then((found) => {
          if (!found || !usable(found.user)) return done(new AppError('unauthorized'));
          request.accessTokenAuth = found;
          done();
        }, done);
      },
      done,
    );
  };
  installEndpointGuards(app, { optional: app.optionalAuth, session: app.requireSession, scoped: app.requireAuth, product: productGuard, recent, recentSecondStep });
}

/**
 * The signed-in session of a route guarded by requireSession (or requireAuth on a route
 * without a scope, which only sessions reach).
 */
export function caller(request: FastifyRequest): Authentication {
  if (!request.auth) throw new AppError(request.apiKeyAuth ? 'forbidden' : 'unauthorized');
  return request.auth;
}

/** The caller of a route guarded by requireAuth, whether a session or an API key. */
export function principal(request: FastifyRequest): Principal {
  if (request.auth) return { user: request.auth.user, apiKey: null, session: request.auth.session };
  if (request.apiKeyAuth) return { user: request.apiKeyAuth.user, apiKey: request.apiKeyAuth.apiKey, session: null };
  if (request.accessTokenAuth) return { user: request.accessTokenAuth.user, apiKey: null, session: null, client: request.accessTokenAuth.clientId };
  throw new AppError('unauthorized');
}

import { AUTH_COOKIE_NAME } from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { SessionRow } from './queries';
import type { SessionService } from './service';

export type UserRow = typeof users.$inferSelect;

export interface Authentication {
  user: UserRow;
  session: SessionRow;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `requireAuth` / `optionalAuth` pre-handlers. */
    auth: Authentication | null;
  }
  interface FastifyInstance {
    /** Any credential the route accepts: a session, or (later) an API key with the route's scope. */
    requireAuth: (request: FastifyRequest) => Promise<void>;
    /**
     * A browser or app session only: for managing keys, password, second factors, passkeys,
     * sessions and deletion, which an API key must never reach.
     */
    requireSession: (request: FastifyRequest) => Promise<void>;
    optionalAuth: (request: FastifyRequest) => Promise<void>;
  }
}

/** The bearer token of a request: the Authorization header first, then the session cookie. */
export function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return request.cookies[AUTH_COOKIE_NAME] || undefined;
}

/**
 * Route pre-handlers that resolve the caller's session. Resolution is per route, not a global
 * hook, so static files and public calls never touch the session table.
 */
export function installAuthGuard(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('auth', null);
  const resolve = async (request: FastifyRequest) => {
    const token = presentedToken(request);
    if (!token || token.length > 512) return null;
    const found = await sessions.authenticate(token);
    return found ? { ...found, token } : null;
  };
  app.decorate('optionalAuth', async (request: FastifyRequest) => {
    request.auth = await resolve(request);
  });
  app.decorate('requireAuth', async (request: FastifyRequest) => {
    request.auth = await resolve(request);
    if (!request.auth) throw new AppError('unauthorized');
  });
  app.decorate('requireSession', async (request: FastifyRequest) => {
    request.auth = await resolve(request);
    if (!request.auth) throw new AppError('unauthorized');
  });
}

/** The signed-in caller of a route guarded by requireAuth. */
export function caller(request: FastifyRequest): Authentication {
  if (!request.auth) throw new AppError('unauthorized');
  return request.auth;
}

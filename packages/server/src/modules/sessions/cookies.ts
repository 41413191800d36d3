import {
  AUTH_COOKIE_MAX_AGE,
  AUTH_COOKIE_NAME,
  DISPLAY_NAME_COOKIE,
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE,
} from '@portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { brandForHost, originFor } from '../../platform/brand';

/**
 * `Secure` whenever the brand's public URL is https, not only when this request looks like
 * HTTPS: behind a proxy that does not say so, the cookie must still never travel in clear.
 */
export function cookieIsSecure(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || originFor(config, brandForHost(config, request.hostname).id).startsWith('https:');
}

/**
 * The session cookie's name. With a secure public URL and no shared cookie domain it takes the
 * `__Host-` prefix: the browser then keeps it to this exact host, path `/` and HTTPS, so a
 * sibling subdomain cannot plant or shadow it. The readable display-name and language cookies
 * keep their names: product pages and the web app read them by name.
 */
export function sessionCookieName(request: FastifyRequest, config: Config): string {
  return !config.COOKIE_DOMAIN && cookieIsSecure(request, config) ? `__Host-${AUTH_COOKIE_NAME}` : AUTH_COOKIE_NAME;
}

function base(request: FastifyRequest, config: Config) {
  return {
    path: '/',
    sameSite: 'lax' as const,
    secure: cookieIsSecure(request, config),
    ...(config.COOKIE_DOMAIN ? { domain: config.COOKIE_DOMAIN } : {}),
  };
}

/**
 * The session token in an httpOnly cookie (scripts never see it), and the display name in a
 * readable one so product pages can greet the user without an API call. The answer carries
 * the token, so no cache may keep it.
 */
export function setSessionCookies(reply: FastifyReply, request: FastifyRequest, config: Config, token: string, fullName: string): void {
  reply.header('cache-control', 'no-store');
  reply.setCookie(sessionCookieName(request, config), token, { ...base(request, config), httpOnly: true, maxAge: AUTH_COOKIE_MAX_AGE });
  reply.setCookie(DISPLAY_NAME_COOKIE, encodeURIComponent(fullName), { ...base(request, config), maxAge: AUTH_COOKIE_MAX_AGE });
}

export function clearSessionCookies(reply: FastifyReply, request: FastifyRequest, config: Config): void {
  reply.clearCookie(sessionCookieName(request, config), { ...base(request, config), httpOnly: true });
  reply.clearCookie(DISPLAY_NAME_COOKIE, base(request, config));
}

export function setLanguageCookie(reply: FastifyReply, request: FastifyRequest, config: Config, language: string): void {
  reply.setCookie(LANG_COOKIE, language, { ...base(request, config), maxAge: LANG_COOKIE_MAX_AGE });
}

/**
 * The Set-Cookie values that clear the session cookies, for a response Fastify does not send
 * itself (the OIDC provider's, written on the raw response).
 */
export function sessionCookieClearings(request: FastifyRequest, config: Config): string[] {
  const expired = { ...base(request, config), expires: new Date(0), maxAge: 0 };
  return [
    request.server.serializeCookie(sessionCookieName(request, config), '', { ...expired, httpOnly: true }),
    request.server.serializeCookie(DISPLAY_NAME_COOKIE, '', expired),
  ];
}

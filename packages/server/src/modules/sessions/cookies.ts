import {
  AUTH_COOKIE_MAX_AGE,
  AUTH_COOKIE_NAME,
  DISPLAY_NAME_COOKIE,
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE,
} from '@portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';

function base(request: FastifyRequest, config: Config) {
  return {
    path: '/',
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    ...(config.COOKIE_DOMAIN ? { domain: config.COOKIE_DOMAIN } : {}),
  };
}

/**
 * The session token in an httpOnly cookie (scripts never see it), and the display name in a
 * readable one so product pages can greet the user without an API call.
 */
export function setSessionCookies(reply: FastifyReply, request: FastifyRequest, config: Config, token: string, fullName: string): void {
  reply.setCookie(AUTH_COOKIE_NAME, token, { ...base(request, config), httpOnly: true, maxAge: AUTH_COOKIE_MAX_AGE });
  reply.setCookie(DISPLAY_NAME_COOKIE, encodeURIComponent(fullName), { ...base(request, config), maxAge: AUTH_COOKIE_MAX_AGE });
}

export function clearSessionCookies(reply: FastifyReply, request: FastifyRequest, config: Config): void {
  reply.clearCookie(AUTH_COOKIE_NAME, { ...base(request, config), httpOnly: true });
  reply.clearCookie(DISPLAY_NAME_COOKIE, base(request, config));
}

export function setLanguageCookie(reply: FastifyReply, request: FastifyRequest, config: Config, language: string): void {
  reply.setCookie(LANG_COOKIE, language, { ...base(request, config), maxAge: LANG_COOKIE_MAX_AGE });
}

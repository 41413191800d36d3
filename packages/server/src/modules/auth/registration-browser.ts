import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { randomToken, sha256 } from '../../platform/crypto';
import { cookieIsSecure } from '../sessions';

/** The cookie that names the browser a sign-up (or an activation resend) came from. */
export const REGISTRATION_COOKIE = 'auth_registration';
const MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * Account pre-hijacking: a stranger can start a sign-up with someone else's address, and the
 * activation mail then lands in the owner's mailbox. Each activation link therefore names the
 * browser that asked for it (the SHA-256 of a random value in an httpOnly cookie): followed in
 * that browser, the registration's password and passkey are kept; followed anywhere else (the
 * mailbox's owner, who never signed up), the account is activated with no credentials at all
 * and its owner chooses a password through recovery. Returns the hash the link carries.
 */
export function registrationBrowser(request: FastifyRequest, reply: FastifyReply, config: Config): string {
  const existing = request.cookies[REGISTRATION_COOKIE];
  const value = existing && /^[\w-]{43}$/.test(existing) ? existing : randomToken();
  reply.setCookie(REGISTRATION_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieIsSecure(request, config), maxAge: MAX_AGE_SECONDS });
  return sha256(value);
}

/** The hash of the registration cookie this request carries, if any. */
export function registrationBrowserOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[REGISTRATION_COOKIE];
  return value ? sha256(value) : undefined;
}

/**
 * Method and path of the calls the web app makes before its first paint or on the sign-in
 * page: the session, the language, signing in and restoring. Their declarations spread these; the web app
 * calls them with this object alone (`call<typeof accountEndpoints.me>(firstPaintRoutes.me)`), so the first paint carries
 * neither the declarations' schemas nor zod (about 30 KB gzipped, beyond the /login budget).
 */
export const me = { method: 'GET', path: '/sso/me' } as const;
export const updateMe = { method: 'PUT', path: '/sso/me' } as const;
export const lastActive = { method: 'POST', path: '/sso/me/last_active' } as const;
export const logout = { method: 'POST', path: '/sso/logout' } as const;
export const lang = { method: 'GET', path: '/resources/lang' } as const;
export const signIn = { method: 'POST', path: '/sso/auth' } as const;
export const passkeyAuthOptions = { method: 'POST', path: '/sso/users/webauthn/auth/options' } as const;
export const passkeyAuthenticate = { method: 'POST', path: '/sso/users/webauthn/auth' } as const;
export const verifySecondFactor = { method: 'POST', path: '/sso/auth/mfa' } as const;
export const resendSecondFactor = { method: 'POST', path: '/sso/auth/mfa/resend' } as const;
export const resendActivation = { method: 'POST', path: '/sso/users/activation/resend' } as const;
export const restore = { method: 'POST', path: '/sso/auth/restore' } as const;
export const captchaChallenge = { method: 'GET', path: '/sso/captcha/challenge' } as const;

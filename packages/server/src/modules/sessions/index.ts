/** The sessions module: sessions, who is calling (the guard), their cookies and the identity cache. */
export { createSessionService, type SessionContext, type SessionService, type SessionsEnded, type SessionsEndedListener } from './service';
export type { SessionAlerts, SessionHistory, SessionRow } from './queries';
export { sessionDeviceDto } from './session-dto';
export { caller, installAuthGuard, presentedToken, principal, productClient, type ApiKeyAuthentication, type ApiKeyAuthenticator, type AccessTokenAuthentication, type AccessTokenAuthenticator, type Authentication, type Principal } from './guard';
export { clearSessionCookies, cookieIsSecure, sessionCookieClearings, sessionCookieName, setLanguageCookie, setSessionCookies } from './cookies';
export { describeClient, type ClientInfo } from './client-info';
export { followIdentityChanges, IDENTITY_CHANNEL, installReadYourWrites } from './change-feed';
export { IdentityCache } from './identity-cache';
export { deleteEndedSessions, installSessionRetentionJob, type SessionRetention } from './retention';
export { sessionRoutes } from './routes';
export type { AuthMethod, SignedIn, SignInResult } from './signed-in';
export { authGuardModule, sessionsModule, withSessions, type SessionsMade } from './module';
export { heldWithoutSsoSince, signedInThroughSso, ssoSinceJoining, type BoundSince } from './sso-since';

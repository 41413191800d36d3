import { z } from 'zod';
import { endpointGroups, endpointIn } from '../endpoint';

/**
 * The OpenID Connect provider's pages: the consent page (`/o/authorize`), Connected apps in
 * account settings, and the device sign-in page (`/login/quick-app`). The OAuth endpoints
 * themselves (`/o/authorize`, `/oidc/*`) are the provider's and speak OAuth, not these.
 */
const { anyone, signedIn, sensitive } = endpointGroups('oauth');

export const oauthAppSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  logo_uri: z.string().nullable(),
  client_uri: z.string().nullable(),
  first_party: z.boolean(),
});
export type OAuthApp = z.infer<typeof oauthAppSchema>;

/** The scopes the pages put in plain words (others are shown as they are). */
export const wordedScopes: ReadonlySet<string> = new Set(['openid', 'profile', 'email', 'offline_access', 'plan']);

/** What an app asks for: scope values (openid, email, profile, offline_access, plan), worded by the page. */
export const consentRequestSchema = z.object({
  app: oauthAppSchema,
  scopes: z.array(z.string()),
  email: z.string(),
});
export type ConsentRequest = z.infer<typeof consentRequestSchema>;

const uidParams = z.object({ uid: z.string().regex(/^[\w-]{10,64}$/) });
/** A client id as the provider issues them (a product's name, `app_` and base64url): anything else is a 400, never a database error. */
const clientIdParams = z.object({ client_id: z.string().regex(/^[\w-]{1,128}$/) });

export const consentRequest = endpointIn(signedIn, 'GET /oauth/interactions/{uid}', 'The authorization request waiting for consent: the app and the scopes it asks for', {
  params: uidParams, response: consentRequestSchema, errors: ['oauth.request_expired'],
});

export const consentDecision = endpointIn(signedIn, 'POST /oauth/interactions/{uid}/consent', 'Allow or deny the app; answers where the browser goes next (back through the provider)', {
  params: uidParams, body: z.object({ allow: z.boolean() }), response: z.object({ redirect_to: z.string() }),
  errors: ['oauth.request_expired'],
});

export const connectedAppSchema = oauthAppSchema.extend({ scopes: z.array(z.string()), granted_at: z.string() });
export type ConnectedApp = z.infer<typeof connectedAppSchema>;

export const connectedApps = endpointIn(signedIn, 'GET /sso/me/connected-apps', 'Apps the user allowed (OAuth consent): scopes and the date granted', {
  response: z.object({ apps: z.array(connectedAppSchema) }),
});

export const revokeConnectedApp = endpointIn(signedIn, 'DELETE /sso/me/connected-apps/{client_id}', "Revoke an app's access: its grant and every token issued from it", {
  params: clientIdParams, response: null, errors: ['oauth.app_not_found'],
});

export const appLogo = endpointIn(anyone, 'GET /oauth/clients/{client_id}/logo', "An outside app's logo (a WebP made from the operator's file); `?v=` makes the answer cacheable forever", {
  params: clientIdParams, query: z.object({ v: z.string().max(20).optional() }), response: 'binary', errors: ['not_found'],
});

export const appRedirects = endpointIn(anyone, 'GET /oauth/clients/{client_id}/app-redirects', "An app's registered private-scheme redirect URIs: the only addresses /callback-app hands a sign-in answer to for it", {
  params: clientIdParams, response: z.object({ redirect_uris: z.array(z.string()) }), errors: ['not_found'],
});

const userCode = z.string().trim().min(4).max(32);

export const deviceRequest = endpointIn(signedIn, 'POST /oauth/device/lookup', 'The app waiting behind a device sign-in code (RFC 8628)', {
  body: z.object({ user_code: userCode }), response: z.object({ app: oauthAppSchema, scopes: z.array(z.string()), user_code: z.string() }),
  errors: ['1002'],
});

// A code typed on another device can be a phisher's: the person proves it is them before an app gets their account.
export const deviceDecision = endpointIn(sensitive, 'POST /oauth/device/decision', 'Approve or refuse the app behind a device sign-in code; needs a sign-in of the last few minutes', {
  body: z.object({ user_code: userCode, allow: z.boolean() }), response: z.object({ approved: z.boolean() }), errors: ['1002'],
});

import type { AccessToken, Client, ClientCredentials, KoaContextWithOIDC, RefreshToken } from 'oidc-provider';
import type { PortalClientMetadata } from './clients';

type IntrospectedToken = AccessToken | ClientCredentials | RefreshToken;

/**
 * Who learns that a token is active (RFC 7662 section 4: the server decides who may see it):
 * the client it was issued to, or a resource server of its audience. Here the audience of a
 * person's token is the product of the client it was issued to (product-tokens.ts), so a
 * product's own confidential back end may introspect the tokens of its product's apps (its
 * desktop app's, its single-page app's). Anyone else, outside apps included, is answered
 * `active: false`, as for a token that does not exist.
 */
export async function introspectionAllowed(ctx: KoaContextWithOIDC, client: Client, token: IntrospectedToken): Promise<boolean> {
  if (token.clientId === client.clientId) return true;
  if (token.kind === 'ClientCredentials' || client.clientAuthMethod === 'none' || !token.clientId) return false;
  const caller = client.metadata() as PortalClientMetadata;
  if (!caller.first_party || !caller.service_scope) return false;
  const issuedTo = (await ctx.oidc.provider.Client.find(token.clientId))?.metadata() as PortalClientMetadata | undefined;
  // The same service scope, not its family: a caller's scope is no theme, though `whitehub`
  // (CyStack Platform) is also the name of the WhiteHub family's theme.
  return issuedTo?.first_party === true && issuedTo.service_scope === caller.service_scope;
}

/** The token a revocation request (RFC 7009) is ending, once the provider found it. */
const revokedToken = (ctx: KoaContextWithOIDC) =>
  ctx.oidc.route === 'revocation' ? (ctx.oidc.entities.RefreshToken ?? ctx.oidc.entities.AccessToken) : undefined;

/**
 * The sign-in (provider session) whose tokens a revocation ends, when the request is one. An
 * app revokes its refresh token when the person signs out of it on one device (as
 * mod_auth_openidc does at each logout); the person's grant for the app is shared by their
 * sign-ins on every browser, so ending every token of the grant would sign them out everywhere.
 * Only the tokens issued in the same provider session go (adapter.ts reads this).
 */
export function signInOfRevocation(ctx: KoaContextWithOIDC | undefined): string | undefined {
  if (!ctx?.oidc) return undefined;
  const sessionUid = revokedToken(ctx)?.sessionUid;
  return typeof sessionUid === 'string' && sessionUid ? sessionUid : undefined;
}

/**
 * Whether the grant (the person's consent) goes with a revoked or replayed token. A revocation
 * of a sign-in's token keeps it: the consent stands for the person's other sign-ins. A token
 * that belongs to no provider session (a device sign-in, whose grant is its own) takes its
 * grant along when it is a refresh token; a replayed code or refresh token revokes the whole
 * family (the provider's reuse detection), grant included.
 */
export function revokesGrant(ctx: KoaContextWithOIDC): boolean {
  if (ctx.oidc.route !== 'revocation') return true;
  if (ctx.oidc.entities.AccessToken) return false;
  return signInOfRevocation(ctx) === undefined;
}

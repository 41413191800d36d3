import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { PortalClientMetadata } from './clients';
import { grantRequestedApiScopes } from './resource-servers';

type LoadExistingGrant = NonNullable<Configuration['loadExistingGrant']>;

/**
 * The provider's loadExistingGrant. First-party clients (the products) never ask: their grant
 * covers what they request. Other apps' grants are remembered per person until revoked,
 * across browser sessions: a new provider session finds the person's latest one
 * (`rememberedGrant`, adapter.ts).
 */
export function existingGrantLoader(rememberedGrant: (accountId: string, clientId: string) => Promise<string | undefined>): LoadExistingGrant {
  return async (ctx: KoaContextWithOIDC) => {
    const client = ctx.oidc.client!;
    const session = ctx.oidc.session!;
    const accountId = session.accountId!;
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId) ?? (await rememberedGrant(accountId, client.clientId));
    let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
    // Read off the client itself (as findAccount does, provider.ts): metadata() rebuilds every key of the client.
    if ((client as unknown as Pick<PortalClientMetadata, 'first_party'>).first_party) {
      grant ??= new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
      if (ctx.oidc.requestParamClaims) grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
      grantRequestedApiScopes(ctx, grant);
      await grant.save();
    }
    return grant;
  };
}

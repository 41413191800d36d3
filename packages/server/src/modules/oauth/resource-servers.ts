import { readFileSync } from 'node:fs';
import { errors, type Configuration, type Grant, type KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../../config';
import { FIRST_PARTY_FILE, PERSON_SCOPES, type PortalClientMetadata } from './clients';

/**
 * Products' own APIs (resource servers), declared beside the products' clients in their file
 * (`resource_servers`). A client listed for an API may ask, with RFC 8707's `resource`, for an
 * access token meant for it: a JWT (RFC 9068, `typ: at+jwt`) whose audience is the API and whose
 * `scope` holds the API's scopes the person's sign-in granted, which the API verifies on its own
 * with the portal's JWKS (docs/integrate.md, examples/product-api). Such a token cannot be
 * revoked before it expires, so it lives minutes; the refresh token, which can, renews it.
 * Without `resource` a client gets the opaque token of the portal's own APIs, as before.
 * Outside apps are never listed: their consent page names person scopes only.
 */
const apiScope = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{1,63}$/)
  .refine((scope) => !(PERSON_SCOPES as readonly string[]).includes(scope), 'an API scope is not a person scope');

const resourceServersSchema = z.object({
  resource_servers: z
    .array(
      z.object({
        /** The API's identifier, the tokens' audience: an absolute URI without a fragment. */
        resource: z.url().refine((uri) => !uri.includes('#'), 'no fragment'),
        scopes: z.array(apiScope).min(1),
        /** The first-party clients that may ask for its tokens. */
        clients: z.array(z.string().min(1)).min(1),
        /** Seconds; short, since a JWT outlives a revocation until it expires. */
        access_token_ttl: z.number().int().min(60).max(3600).default(300),
      }),
    )
    .default([]),
});
export type ResourceServerEntry = z.output<typeof resourceServersSchema>['resource_servers'][number];

export function resourceServers(config: Pick<Config, 'OAUTH_CLIENTS_FILE'>): ResourceServerEntry[] {
  const file = config.OAUTH_CLIENTS_FILE ?? FIRST_PARTY_FILE;
  return resourceServersSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).resource_servers;
}

/** The provider's resourceIndicators feature for these APIs: an unknown API, or a client not listed for it, is `invalid_target`. */
export function resourceIndicatorsFeature(servers: ResourceServerEntry[]): NonNullable<NonNullable<Configuration['features']>['resourceIndicators']> {
  return {
    enabled: true,
    async getResourceServerInfo(_ctx, indicator, client) {
      const server = servers.find((entry) => entry.resource === indicator);
      if (!server || !(client.metadata() as PortalClientMetadata).first_party || !server.clients.includes(client.clientId)) {
        throw new errors.InvalidTarget();
      }
      return {
        audience: server.resource,
        scope: server.scopes.join(' '),
        accessTokenTTL: server.access_token_ttl,
        accessTokenFormat: 'jwt',
        // The family's algorithm (keys.ts): ES256 costs a tenth of RS256 to sign.
        jwt: { sign: { alg: 'ES256' } },
      };
    },
  };
}

/**
 * A product's grant covers what it asks of its own APIs, as it covers the person scopes it
 * asks (provider.ts, loadExistingGrant): only the scopes each API declares.
 */
export function grantRequestedApiScopes(ctx: KoaContextWithOIDC, grant: Grant): void {
  for (const [indicator, server] of Object.entries(ctx.oidc.resourceServers ?? {})) {
    const requested = [...ctx.oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
    if (requested.length > 0) grant.addResourceScope(indicator, requested.join(' '));
  }
}

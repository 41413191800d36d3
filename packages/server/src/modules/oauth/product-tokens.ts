import { serviceCatalogue, type InnerService, type ServiceScope } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { AccessTokenAuthenticator } from '../sessions';
import { createUserService } from '../users';
import type { PortalClientMetadata } from './clients';
import type { CurrentProvider } from './current-provider';

/**
 * Whether a client's service scope belongs to the product a `/{product}_platform/...` path
 * names: the service scope itself (`pwdmanager_platform`) or its product family, the theme
 * (`locker_platform` for pwdmanager, pwdmanager_enterprise and secret).
 */
export function serviceBelongsTo(serviceScope: string | undefined, product: string): boolean {
  if (!serviceScope || !(serviceScope in serviceCatalogue)) return false;
  return serviceScope === product || serviceCatalogue[serviceScope as ServiceScope | InnerService].theme === product;
}

/**
 * Access tokens on the products' APIs. Tokens stay opaque and are looked up here, in-process
 * (what introspection would answer, without the HTTP hop): a revoked token, a revoked grant,
 * or one whose portal session ended is refused at once, which a self-contained JWT could not
 * be until it expired. The audience is the product the token was issued to: its client's
 * service scope; a token of another product, or of an outside app, is refused.
 */
export function productAccessTokens(provider: CurrentProvider, db: Database): AccessTokenAuthenticator {
  const users = createUserService(db);
  return {
    async authenticate(value, product) {
      const { AccessToken, Client, Grant } = provider();
      const token = await AccessToken.find(value);
      if (!token?.accountId || !token.clientId) return null;
      const [client, grant] = await Promise.all([Client.find(token.clientId), token.grantId ? Grant.find(token.grantId) : undefined]);
      if (!client || !grant || grant.accountId !== token.accountId) return null;
      const metadata = client.metadata() as PortalClientMetadata;
      if (!metadata.first_party || !serviceBelongsTo(metadata.service_scope, product)) return null;
      const user = await users.findById(token.accountId);
      return user ? { user, clientId: client.clientId } : null;
    },
  };
}

/** A product's back end, as its client-credentials access token shows it. */
export interface ProductClient {
  clientId: string;
  /** The first-party client's service scope (`bugbounty`...). */
  serviceScope: string;
  /** The OAuth scopes the token was granted (`moderators`...). */
  scopes: string[];
}

/**
 * Access tokens a product's back end got by the client-credentials grant (oidc-provider's
 * ClientCredentials model; a person's access token is another model and is never found here).
 * Live tokens of a first-party client only; null for anything else (unknown, expired, revoked,
 * an outside app's).
 */
export interface ProductClientTokens {
  authenticate(token: string): Promise<ProductClient | null>;
}

export function productClientTokens(provider: CurrentProvider): ProductClientTokens {
  return {
    async authenticate(value) {
      if (!value || value.length > 512) return null;
      const { ClientCredentials, Client } = provider();
      const token = await ClientCredentials.find(value);
      if (!token?.clientId || token.isExpired) return null;
      const client = await Client.find(token.clientId);
      const metadata = client?.metadata() as PortalClientMetadata | undefined;
      if (!client || !metadata?.first_party || !metadata.service_scope) return null;
      return { clientId: client.clientId, serviceScope: metadata.service_scope, scopes: token.scope ? token.scope.split(' ') : [] };
    },
  };
}

import { apiKeyScopes, type ApiKeyScope } from '@portal/contracts';
import { apiKeys } from '../../db/schema';
import { fieldError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import { signedInThroughSso, type ApiKeyAuthentication, type ApiKeyAuthenticator } from '../sessions';
import { type NotifierDependencies, notifySecurityEvent } from '../notifications';
import { bearerKeyStore, toKeyDto, type KeyRow } from './key-store';

/** Live keys one user may hold: plenty for real use, and a bound on what a stolen session can mint. */
export const MAX_API_KEYS_PER_USER = 50;

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

/** Stored scopes, keeping only those the catalogue still knows. */
const knownScopes = (scopes: readonly string[]): ApiKeyScope[] => scopes.filter((scope): scope is ApiKeyScope => (apiKeyScopes as readonly string[]).includes(scope));

export const toApiKeyDto = (row: KeyRow) => toKeyDto(row, knownScopes);

/**
 * API keys: `pk_` + 32 random bytes (base64url, 256 bits), stored only as SHA-256. A key acts
 * for its user within its scopes on routes that declare one; it never manages keys, password,
 * second factors, sessions or deletion (those routes take sessions only).
 */
export function createApiKeyService(deps: NotifierDependencies) {
  const keys = bearerKeyStore(deps.db, deps.clock, apiKeys);

  const authenticator: ApiKeyAuthenticator = {
    async authenticate(key: string): Promise<ApiKeyAuthentication | null> {
      const found = await keys.authenticate(key);
      return found && { user: found.user, apiKey: { id: found.key.id, scopes: knownScopes(found.key.scopes) } };
    },
  };

  return {
    ...authenticator,

    /**
     * Creates a key on the session `sessionId` (still live: see the store's create); the secret
     * is in the answer this once and nowhere else. Mails and notifies the owner. The key keeps
     * when the organization's IdP signed that session in, if it did: company SSO's sweep asks
     * of the key what it asks of the session (sso-bound.ts).
     */
    async create(userId: string, input: { name: string; scopes: ApiKeyScope[]; expires_in_days?: number }, origin: RequestOrigin, sessionId: string) {
      const made = await keys.create(userId, input, { limit: MAX_API_KEYS_PER_USER, onSession: sessionId, own: (session) => ({ ssoSignedInAt: signedInThroughSso(session.amr) ? session.createdAt : null }) });
      if (!made) throw fieldError('name', 'api_keys.limit_reached', { max: MAX_API_KEYS_PER_USER });
      await notifySecurityEvent(deps, userId, 'api_key_created', { brand: origin.brand, detail: input.name });
      return { ...toApiKeyDto(made.row), key: made.key };
    },

    list: async (userId: string) => (await keys.liveKeysOf(userId)).map(toApiKeyDto),
    revoke: (userId: string, id: string) => keys.revoke(userId, id),
  };
}

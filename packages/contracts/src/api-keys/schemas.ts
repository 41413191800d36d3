import { z } from 'zod';
import { messages } from '../auth/schemas';

/** API keys. A key never manages keys, password, second factors, sessions or deletion. */
export const apiKeyScopes = ['me:read', 'me:write', 'notifications:read', 'notifications:write'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];
export const API_KEY_PREFIX = 'pk_';
/**
 * An API key's whole shape: the prefix and 43 characters (32 random bytes, base64url). Only
 * this shape is taken for a key: session and access tokens are 43 random base64url characters
 * too, and one in 262,144 of them starts with the prefix by chance.
 */
export const API_KEY_PATTERN = /^pk_[A-Za-z0-9_-]{43}$/;
/** POST /sso/me/api-keys → the key, shown this once. */
export const createApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1, messages.blank).max(60),
  scopes: z.array(z.enum(apiKeyScopes)).min(1, 'Choose at least one scope'),
  /** Days until the key stops working; absent for no expiry. */
  expires_in_days: z.number().int().min(1).max(365).optional(),
});
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(apiKeyScopes)),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
/** GET /sso/me/api-keys; DELETE /sso/me/api-keys/{id} → 204. */
export const apiKeyListSchema = z.array(apiKeySchema);
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });

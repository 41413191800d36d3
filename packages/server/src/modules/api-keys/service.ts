import { randomUUID } from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_PREFIX, apiKeyScopes, type ApiKeyScope } from '@portal/contracts';
import { z } from 'zod';
import { randomToken, sha256 } from '../../platform/crypto';
import { fieldError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import type { ApiKeyAuthentication, ApiKeyAuthenticator } from '../sessions';
import { type NotifierDependencies, notifySecurityEvent } from '../notifications';
import { apiKeyQueries, type ApiKeyRow } from './queries';

/** Writing last-used on every call would turn every read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;
/** Characters of the secret part shown in lists, so people can tell their keys apart. */
export const API_KEY_VISIBLE_CHARS = 8;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Live keys one user may hold: plenty for real use, and a bound on what a stolen session can mint. */
export const MAX_API_KEYS_PER_USER = 50;
const scopeList = z.array(z.enum(apiKeyScopes));

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

export function toApiKeyDto(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: scopesOf(row),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** Stored scopes, keeping only those the catalogue still knows. */
function scopesOf(row: ApiKeyRow): ApiKeyScope[] {
  const parsed = scopeList.safeParse(row.scopes.filter((scope) => (apiKeyScopes as readonly string[]).includes(scope)));
  return parsed.success ? parsed.data : [];
}

/**
 * API keys: `pk_` + 32 random bytes (base64url, 256 bits), stored only as SHA-256. A key acts
 * for its user within its scopes on routes that declare one; it never manages keys, password,
 * second factors, sessions or deletion (those routes take sessions only).
 */
export function createApiKeyService(deps: NotifierDependencies) {
  const { clock } = deps;
  const queries = apiKeyQueries(deps.db);

  const authenticator: ApiKeyAuthenticator = {
    async authenticate(key: string): Promise<ApiKeyAuthentication | null> {
      if (!API_KEY_PATTERN.test(key)) return null;
      const found = await queries.findByHash(sha256(key));
      const now = clock.now();
      if (!found || found.key.revokedAt || (found.key.expiresAt && found.key.expiresAt <= now)) return null;
      if (!found.key.lastUsedAt || now.getTime() - found.key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        await queries.touch(found.key.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS));
      }
      return { user: found.user, apiKey: { id: found.key.id, scopes: scopesOf(found.key) } };
    },
  };

  return {
    ...authenticator,

    /** Creates a key; the secret is in the answer this once and nowhere else. Mails and notifies the owner. */
    async create(userId: string, input: { name: string; scopes: ApiKeyScope[]; expires_in_days?: number }, origin: RequestOrigin) {
      if ((await queries.listForUser(userId)).length >= MAX_API_KEYS_PER_USER) {
        throw fieldError('name', 'api_keys.limit_reached', { max: MAX_API_KEYS_PER_USER });
      }
      const secret = randomToken(32);
      const key = `${API_KEY_PREFIX}${secret}`;
      const now = clock.now();
      const row = await queries.insert({
        id: randomUUID(),
        userId,
        name: input.name,
        prefix: secret.slice(0, API_KEY_VISIBLE_CHARS),
        keyHash: sha256(key),
        scopes: [...new Set(input.scopes)],
        expiresAt: input.expires_in_days ? new Date(now.getTime() + input.expires_in_days * DAY_MS) : null,
        createdAt: now,
      });
      await notifySecurityEvent(deps, userId, 'api_key_created', { brand: origin.brand, detail: input.name });
      return { ...toApiKeyDto(row), key };
    },

    list: async (userId: string) => (await queries.listForUser(userId)).map(toApiKeyDto),
    revoke: (userId: string, id: string) => queries.revoke(userId, id, clock.now()),
  };
}

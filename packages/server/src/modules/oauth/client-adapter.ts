import { and, eq, isNull } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client';
import { oauthClients } from '../../db/schema';
import { clientCache, type ClientCache } from './client-cache';
import { outsideAppScope } from './clients';

/** An outside app as the provider takes it, or undefined when it is not registered or is disabled. */
export async function readOutsideApp(db: Database, clientId: string): Promise<AdapterPayload | undefined> {
  const [row] = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.clientId, clientId), isNull(oauthClients.disabledAt)))
    .limit(1);
  if (!row) return undefined;
  // An outside app asks a person for their scopes only: the products' own back-end scopes
  // (MODERATORS_SCOPE) are refused as invalid_scope, whatever its stored metadata says.
  return { ...row.metadata, scope: outsideAppScope(row.metadata.scope), client_id: row.clientId, ...(row.secretHash ? { client_secret: `sha256:${row.secretHash}` } : {}) } as AdapterPayload;
}

/** The cache of outside apps the Client adapter answers from (client-cache.ts: forgotten on every node at each change). */
export const outsideApps = (db: Database): ClientCache => clientCache((clientId) => readOutsideApp(db, clientId));

/**
 * The provider's `Client` model: the outside apps registered by `npm run clients` or the
 * operators' console (first-party clients are the provider's static clients, never asked
 * here). A disabled app is not found, so the provider signs nobody in for it, refreshes
 * none of its tokens and answers none of them at userinfo; its client secret is a hash
 * (`compareClientSecret` in client-secrets.ts).
 */
export class ClientAdapter implements Adapter {
  constructor(private readonly apps: ClientCache) {}

  async upsert(): Promise<void> {
    throw new Error('clients are registered with `npm run clients`');
  }
  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.apps.find(id);
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

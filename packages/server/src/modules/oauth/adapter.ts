import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client';
import { oauthClients, oidcModels } from '../../db/schema';

/** Payloads are the provider's own JSON; these columns beside it are what lookups need. */
function columnsOf(model: string, id: string, payload: AdapterPayload) {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return {
    // A grant's own id is the key its tokens carry; revoking by grant id must not drop the grant row itself.
    grantId: model === 'Grant' ? null : text(payload.grantId),
    userCode: text(payload.userCode),
    uid: text(payload.uid),
    accountId: text(payload.accountId),
    clientId: text(payload.clientId),
    sessionUid: model === 'Session' ? text(payload.uid) : text(payload.sessionUid),
    id,
  };
}

/**
 * oidc-provider's storage on our database (PGlite or PostgreSQL, through drizzle): one table
 * of models keyed by (model, id). Expired rows are invisible at once and deleted hourly (sweep.ts).
 * The `Client` model reads the outside apps registered by `npm run clients` (their secrets
 * are hashes: see `compareClientSecret` in provider.ts).
 */
export function createAdapterFactory(db: Database) {
  const live = (model: string) => and(eq(oidcModels.model, model), or(isNull(oidcModels.expiresAt), gt(oidcModels.expiresAt, sql`now()`)));

  const unpack = (row: { payload: Record<string, unknown>; consumedAt: Date | null } | undefined): AdapterPayload | undefined =>
    row ? ({ ...row.payload, ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}) } as AdapterPayload) : undefined;

  /**
   * What the provider does for a replayed code or refresh token (helpers/revoke.js): every
   * token of its grant and the grant itself go. Without a grant, the one row goes.
   */
  async function revokeFamily(model: string, id: string): Promise<void> {
    const [row] = await db
      .select({ grantId: oidcModels.grantId })
      .from(oidcModels)
      .where(and(eq(oidcModels.model, model), eq(oidcModels.id, id)))
      .limit(1);
    if (!row?.grantId) {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, model), eq(oidcModels.id, id)));
      return;
    }
    await db.delete(oidcModels).where(or(eq(oidcModels.grantId, row.grantId), and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, row.grantId))));
  }

  class ClientAdapter implements Adapter {
    async upsert(): Promise<void> {
      throw new Error('clients are registered with `npm run clients`');
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, id)).limit(1);
      if (!row) return undefined;
      return { ...row.metadata, client_id: row.clientId, ...(row.secretHash ? { client_secret: `sha256:${row.secretHash}` } : {}) } as AdapterPayload;
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

  class ModelAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const columns = columnsOf(this.model, id, payload);
      await db
        .insert(oidcModels)
        .values({ model: this.model, payload: payload as Record<string, unknown>, expiresAt, ...columns })
        .onConflictDoUpdate({ target: [oidcModels.model, oidcModels.id], set: { payload: payload as Record<string, unknown>, expiresAt, ...columns } });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(and(live(this.model), eq(oidcModels.id, id)))
        .limit(1);
      return unpack(row);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(and(live(this.model), eq(oidcModels.userCode, userCode)))
        .limit(1);
      return unpack(row);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(and(live(this.model), eq(oidcModels.uid, uid)))
        .limit(1);
      return unpack(row);
    }

    /**
     * Marks a code or token used, in one conditional statement: of two concurrent redemptions
     * (both read it unused) exactly one wins. The loser is treated as a replay, as the provider
     * treats a token presented again after use: its whole grant is revoked (so the winner's
     * new tokens stop working too) and the request answers invalid_grant (a 400, never a 500).
     */
    async consume(id: string): Promise<void> {
      const used = await db
        .update(oidcModels)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id), isNull(oidcModels.consumedAt)))
        .returning({ id: oidcModels.id });
      if (used.length > 0) return;
      await revokeFamily(this.model, id);
      throw new errors.InvalidGrant(`${this.model} already used`);
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.grantId, grantId)));
    }
  }

  return (model: string): Adapter => (model === 'Client' ? new ClientAdapter() : new ModelAdapter(model));
}

import { and, eq, or } from 'drizzle-orm';
import Provider, { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client';
import { oidcModels } from '../../db/schema';
import { hotStatements } from './adapter-statements';
import { ClientAdapter, readOutsideApp } from './client-adapter';
import { clientCache, type ClientCache } from './client-cache';
import { columnsOf, liveRow, unpack } from './model-rows';
import { rememberedReadAhead } from './remembered-read-ahead';
import { requestWrites, type SessionLink } from './request-writes';
import { tokenCache, type TokenCache } from './token-cache';
import { findBatcher, grantHandoff, offerGrantOf, type FoundRow } from './token-reads';

/** Whether `request` is the provider's refresh-token grant (its token endpoint's Koa context). */
function isRefreshGrant(request: object | undefined): boolean {
  const oidc = (request as { oidc?: { route?: string; params?: { grant_type?: unknown } } } | undefined)?.oidc;
  return oidc?.route === 'token' && oidc.params?.grant_type === 'refresh_token';
}

/**
 * oidc-provider's storage on our database (PGlite or PostgreSQL, through drizzle): one table
 * of models keyed by (model, id). Expired rows are invisible at once and deleted hourly (sweep.ts).
 * The `Client` model answers the outside apps (client-adapter.ts).
 */
export function createAdapterFactory(
  db: Database,
  options: {
    currentRequest?: () => object | undefined;
    /** The provider session a revocation request ends the tokens of (token-policies.ts), when it is one. */
    revocationSignIn?: () => string | undefined;
    /** The outside apps the `Client` model answers (client-adapter.ts); read each time when not given. */
    clients?: ClientCache;
    /** Tokens just read, and refresh tokens just issued (token-cache.ts); none kept when not given. */
    tokens?: TokenCache;
  } = {},
) {
  const clients = options.clients ?? clientCache((clientId) => readOutsideApp(db, clientId));
  const tokens = options.tokens ?? tokenCache();
  const live = (model: string) => and(eq(oidcModels.model, model), liveRow(oidcModels.expiresAt));
  const statements = hotStatements(db);
  const handoff = grantHandoff();
  const findRow = findBatcher(statements.find, handoff);
  const readAhead = rememberedReadAhead();
  /** Refresh tokens a provider request saved, which the token cache keeps once its writes are made. */
  const issuedRefreshTokens = new WeakMap<object, Array<{ id: string; payload: AdapterPayload }>>();
  /**
   * The grants a provider request read with its token and did not change, by id, with when each
   * was read from the database: a refresh token the request issues is kept with its grant's
   * payload for what is left of that read's time (so a chain of refreshes never carries a grant
   * past the cache's bound without reading it again).
   */
  const grantsRead = new WeakMap<object, Map<string, { payload: Record<string, unknown>; readAt: number; generation: number }>>();
  // The provider request a model call runs in: oidc-provider keeps it (AsyncLocalStorage) as Provider.ctx.
  const currentRequest = options.currentRequest ?? (() => Provider.ctx);
  const writes = requestWrites(statements, currentRequest, async (model, id) => {
    await revokeFamily(model, id);
    throw new errors.InvalidGrant(`${model} already used`);
  });

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
    handoff.forget(row.grantId);
    readAhead.forget(currentRequest());
    const grantId = row.grantId;
    await forgottenAround(
      () => tokens.forgetGrant(grantId),
      () => db.delete(oidcModels).where(or(eq(oidcModels.grantId, grantId), and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId)))),
    );
  }

  /**
   * Runs a delete with the token cache forgetting what it removes before it and again once it
   * has committed: a read on this node between the two still sees the row and may keep it, and
   * the database's notification that would forget it comes later over PostgreSQL (another
   * connection). The revocation answers only after the second forget.
   */
  async function forgottenAround(forget: () => void, remove: () => Promise<unknown>): Promise<void> {
    forget();
    try {
      await remove();
    } finally {
      forget();
    }
  }

  /**
   * An interaction, in a provider request with the person's remembered grant for its app
   * (rememberedGrant takes it next): a resume's two reads in one statement.
   */
  async function findInteraction(id: string): Promise<AdapterPayload | undefined> {
    const request = currentRequest();
    if (!request) return unpack(await findRow('Interaction', id));
    const at = Date.now();
    const [row] = await statements.findInteraction.execute({ id });
    if (row?.accountId && row.clientId) {
      const grant = row.grantId && row.grantPayload ? { id: row.grantId, payload: row.grantPayload } : undefined;
      readAhead.keep(request, { accountId: row.accountId, clientId: row.clientId, grant, at });
    }
    return unpack(row);
  }

  /** A grant saved or deleted here: the current request's read-ahead of remembered grants is no longer what it would read. */
  function grantChanged(id: string): void {
    handoff.forget(id);
    tokens.forgetGrant(id);
    const request = currentRequest();
    readAhead.forget(request);
    if (request) grantsRead.get(request)?.delete(id);
  }

  /** Notes the grant read with a token in the current provider request (its new refresh token is kept with it). */
  function grantReadWith(row: FoundRow, readAt: number, generation: number): void {
    const request = currentRequest();
    const grantId = row.payload.grantId;
    if (!request || !row.grantPayload || typeof grantId !== 'string') return;
    let read = grantsRead.get(request);
    if (!read) grantsRead.set(request, (read = new Map()));
    read.set(grantId, { payload: row.grantPayload, readAt, generation });
  }

  /**
   * A row by id: from the token cache when this node has just read it as an access or
   * client-credentials token (the other models introspection asks for the same id at once are
   * then answered "not found" without a statement), else read, and kept when it is such a token.
   * A kept token's grant goes to the Grant.find that follows.
   */
  async function findById(model: string, id: string): Promise<AdapterPayload | undefined> {
    const kept = tokens.find(model, id);
    if (kept === null) return undefined;
    // A kept refresh token answers only the grant that consumes it (isRefreshGrant): its
    // conditional consume refuses one used or revoked meanwhile on any node, with the reuse
    // detection's revocation; introspection, which nothing checks after, reads the database.
    if (kept && (model !== 'RefreshToken' || isRefreshGrant(currentRequest()))) {
      offerGrantOf(kept, handoff);
      grantReadWith(kept, kept.grantReadAt ?? Date.now(), tokens.generation);
      return unpack(kept);
    }
    const since = tokens.generation;
    const readAt = Date.now();
    const row = await findRow(model, id);
    if (row && tokens.keeps(model)) tokens.keep(model, id, row, since);
    if (row) grantReadWith(row, readAt, since);
    return unpack(row);
  }

  /** Keeps the refresh tokens a request issued, once stored, with the grant it read. */
  function keepIssued(request: object | undefined): void {
    const saved = request && issuedRefreshTokens.get(request);
    if (!saved) return;
    issuedRefreshTokens.delete(request);
    for (const { id, payload } of saved) {
      const grant = typeof payload.grantId === 'string' ? grantsRead.get(request)?.get(payload.grantId) : undefined;
      if (grant) tokens.keepWithGrant('RefreshToken', id, { payload, consumedAt: null, grantPayload: grant.payload, grantReadAt: grant.readAt }, grant.generation);
    }
  }

  class ModelAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (this.model === 'Grant') grantChanged(id);
      else if (tokens.keeps(this.model)) tokens.forgetToken(id);
      await writes.add({
        ...columnsOf(this.model, id, payload),
        model: this.model,
        payload: JSON.stringify(payload),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      });
      // A refresh token is kept once stored, with the grant its request read: the chain's next
      // grant reads it. Every other token is kept once read (introspection, userinfo). Kept as
      // issued, client-credentials tokens cost a grant 7 % of its throughput under load (each
      // entry outlives the young generation: old-generation garbage) and a burst of them
      // evicted the tokens that resource servers were introspecting.
      const request = currentRequest();
      if (this.model === 'RefreshToken' && request && payload.grantId) {
        const saved = issuedRefreshTokens.get(request);
        if (saved) saved.push({ id, payload });
        else issuedRefreshTokens.set(request, [{ id, payload }]);
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      // Its row is read with its grant's: the request's writes of either go first.
      await writes.flushTouching(this.model, 'Grant');
      if (this.model === 'Interaction') return findInteraction(id);
      if (this.model === 'Grant') {
        const handed = handoff.take(id);
        if (handed) return handed as AdapterPayload;
      }
      return findById(this.model, id);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      await writes.flush();
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(and(live(this.model), eq(oidcModels.userCode, userCode)))
        .limit(1);
      return unpack(row);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      await writes.flush();
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(and(live(this.model), eq(oidcModels.uid, uid)))
        .limit(1);
      return unpack(row);
    }

    /**
     * Marks a code or token used, in one conditional statement (made with the request's writes:
     * requestWrites): of two concurrent redemptions (both read it unused) exactly one wins. The
     * loser is treated as a replay, as the provider treats a token presented again after use:
     * its whole grant is revoked (so the winner's new tokens stop working too) and the request
     * answers invalid_grant (a 400, never a 500).
     */
    async consume(id: string): Promise<void> {
      // Used once: no longer kept (the consume itself decides whether it was still unused).
      if (tokens.keeps(this.model)) tokens.forgetToken(id);
      await writes.consume({ model: this.model, id });
    }

    async destroy(id: string): Promise<void> {
      // An interaction ends with the writes of the request that ends it (request-writes.ts).
      if (this.model === 'Interaction') return writes.removeInteraction(id);
      await writes.flush();
      await forgottenAround(
        () => (this.model === 'Grant' ? grantChanged(id) : tokens.forgetToken(id)),
        () => db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id))),
      );
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await writes.flush();
      // An app's revocation ends its tokens of one sign-in; the grant's others (other browsers) stay.
      const signIn = options.revocationSignIn?.();
      await forgottenAround(
        () => grantChanged(grantId),
        () =>
          db
            .delete(oidcModels)
            .where(and(eq(oidcModels.model, this.model), eq(oidcModels.grantId, grantId), signIn ? eq(oidcModels.sessionUid, signIn) : undefined)),
      );
    }
  }

  return {
    adapterFor: (model: string): Adapter => (model === 'Client' ? new ClientAdapter(clients) : new ModelAdapter(model)),
    /** Makes the writes a provider request held (its end: before the response leaves). */
    async flushRequest(request: object): Promise<void> {
      try {
        await writes.flush(request);
        keepIssued(request);
      } finally {
        issuedRefreshTokens.delete(request);
        grantsRead.delete(request);
      }
    },
    /**
     * The id of a person's latest live grant for a client, read with the grant, which the
     * Grant.find of the same request then takes (token-reads.ts: one statement, not two).
     */
    async rememberedGrant(accountId: string, clientId: string): Promise<string | undefined> {
      await writes.flushTouching('Grant');
      const request = currentRequest();
      const readWithInteraction = request && readAhead.take(request, accountId, clientId);
      if (readWithInteraction) {
        const { grant, at } = readWithInteraction;
        if (grant) handoff.offer(grant.id, grant.payload, at);
        return grant?.id;
      }
      const [row] = await statements.remembered.execute({ accountId, clientId });
      if (!row) return undefined;
      handoff.offer(row.id, row.payload);
      return row.id;
    },
    /** The portal session a provider session stands on, if it is linked to one (portal-sign-on.ts). */
    async linkedPortalSession(sessionUid: string): Promise<string | undefined> {
      const [row] = await statements.linkedPortalSession.execute({ sessionUid });
      return row?.portalSessionId;
    },
    /** Links the request's provider session to its portal session, in the statement of its writes. */
    linkSession: (request: object, link: SessionLink) => writes.linkSession(request, link),
  };
}

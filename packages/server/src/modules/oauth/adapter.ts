import { and, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, QueryBuilder, type PgColumn } from 'drizzle-orm/pg-core';
import Provider, { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client';
import { oauthClients, oidcModels } from '../../db/schema';
import { outsideAppScope } from './clients';

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

type ModelRow = { payload: Record<string, unknown>; consumedAt: Date | null };

const unpack = (row: ModelRow | undefined): AdapterPayload | undefined =>
  row ? ({ ...row.payload, ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}) } as AdapterPayload) : undefined;

/** Not expired: expired rows are invisible at once (the sweep deletes them later). */
const liveRow = (expiresAt: PgColumn): SQL => or(isNull(expiresAt), gt(expiresAt, sql`now()`))!;

/**
 * The statements of a token grant, prepared once: drizzle builds a query's SQL on every call
 * otherwise (a measurable share of a refresh grant's CPU), and PostgreSQL parses a named
 * statement once per connection.
 */
function hotStatements(db: Database) {
  const t = oidcModels;
  const grant = alias(oidcModels, 'grant_row');
  return {
    /** The rows of `id` among `models`, each with its live grant's payload when it has one (the same snapshot). */
    find: db
      .select({ model: t.model, payload: t.payload, consumedAt: t.consumedAt, grantPayload: grant.payload })
      .from(t)
      .leftJoin(grant, and(eq(grant.model, 'Grant'), eq(grant.id, t.grantId), liveRow(grant.expiresAt)))
      .where(and(sql`${t.model} = any(${sql.placeholder('models')})`, eq(t.id, sql.placeholder('id')), liveRow(t.expiresAt)))
      .prepare('oidc_models_find'),
    consume: db
      .update(t)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(t.model, sql.placeholder('model')), eq(t.id, sql.placeholder('id')), isNull(t.consumedAt)))
      .returning({ id: t.id })
      .prepare('oidc_models_consume'),
    /** Saves rows, one or several in one statement (a provider request's writes: requestWrites). */
    upsert: upsertRows(db.insert(t).select(rowsOfArrays())).prepare('oidc_models_upsert'),
    /**
     * Marks one code or token used and saves rows, only if it was unused, in one statement: a
     * refresh grant consumes its token and stores the rotated one with its access token. The
     * rows it answers are those saved: none when the token was already used.
     */
    consumeAndUpsert: upsertRows(db.with(consumed).insert(t).select(sql`${rowsOfArrays()} where exists (select 1 from ${consumed})`))
      .returning({ id: t.id })
      .prepare('oidc_models_consume_upsert'),
  };
}

/** The rows of a write as parallel arrays (one parameter per column): any number of rows in one statement. */
const rowsOfArrays = () =>
  // The table's columns in its order (drizzle inserts into all of them), consumed_at empty.
  sql`select model, id, payload, grant_id, user_code, uid, account_id, client_id, session_uid, expires_at, null::timestamptz
      from unnest(${sql.placeholder('model')}::text[], ${sql.placeholder('id')}::text[], ${sql.placeholder('payload')}::jsonb[], ${sql.placeholder('grantId')}::text[],
                  ${sql.placeholder('userCode')}::text[], ${sql.placeholder('uid')}::text[], ${sql.placeholder('accountId')}::text[], ${sql.placeholder('clientId')}::text[],
                  ${sql.placeholder('sessionUid')}::text[], ${sql.placeholder('expiresAt')}::timestamptz[])
        as rows(model, id, payload, grant_id, user_code, uid, account_id, client_id, session_uid, expires_at)`;

/** The code or token `consumeAndUpsert` marks used (its `consumedModel` and `consumedId`), when it was unused. */
const consumed = (() => {
  const t = oidcModels;
  return new QueryBuilder().$with('consumed', { id: sql<string>`id` }).as(
    sql`update ${t} set ${sql.identifier(t.consumedAt.name)} = now()
        where ${t.model} = ${sql.placeholder('consumedModel')} and ${t.id} = ${sql.placeholder('consumedId')} and ${t.consumedAt} is null
        returning ${t.id}`,
  );
})();

/** An insert of rows that replaces the rows of the same (model, id). */
function upsertRows<T extends { onConflictDoUpdate: (config: { target: PgColumn[]; set: Record<string, SQL> }) => unknown }>(insert: T): ReturnType<T['onConflictDoUpdate']> {
  const t = oidcModels;
  return insert.onConflictDoUpdate({
    target: [t.model, t.id],
    set: {
      payload: sql`excluded.payload`,
      expiresAt: sql`excluded.expires_at`,
      grantId: sql`excluded.grant_id`,
      userCode: sql`excluded.user_code`,
      uid: sql`excluded.uid`,
      accountId: sql`excluded.account_id`,
      clientId: sql`excluded.client_id`,
      sessionUid: sql`excluded.session_uid`,
    },
  }) as ReturnType<T['onConflictDoUpdate']>;
}

/**
 * How long a grant read with its token waits for the provider's Grant.find of the same request
 * (a few milliseconds apart, more under load). Short, because an entry whose request never got
 * there could otherwise answer another request's Grant.find with what another node revoked.
 */
const HANDOFF_MS = 500;

/**
 * Grants read together with a token (one statement), handed to the Grant.find that the same
 * request makes right after (refresh, code, introspection, userinfo), then forgotten: not a
 * cache, each entry is used once. It reads the grant in the token's own snapshot, so it is
 * never staler than reading it a moment later: a revocation landing between the two reads
 * is indistinguishable from one landing just after, and the refresh and code grants then
 * meet it at `consume` (the token's row is gone: the conditional UPDATE finds nothing and
 * the request is refused). Another node's revocation deletes the token rows, which every
 * request reads from the database, so nothing here can outlive it. A grant saved or deleted
 * in this process drops its entry.
 */
function grantHandoff() {
  const waiting = new Map<string, { payload: Record<string, unknown>; at: number }>();
  return {
    offer(grantId: string, payload: Record<string, unknown>) {
      const now = Date.now();
      if (waiting.size > 1000) for (const [id, entry] of waiting) if (now - entry.at > HANDOFF_MS) waiting.delete(id);
      waiting.set(grantId, { payload, at: now });
    },
    take(grantId: string): Record<string, unknown> | undefined {
      const entry = waiting.get(grantId);
      waiting.delete(grantId);
      return entry && Date.now() - entry.at <= HANDOFF_MS ? entry.payload : undefined;
    },
    forget: (grantId: string) => void waiting.delete(grantId),
  };
}

type FindStatement = ReturnType<typeof hotStatements>['find'];

/** One row of the models table as the upsert statements take it. */
type ModelWrite = ReturnType<typeof columnsOf> & { model: string; payload: string; expiresAt: string | null };

/**
 * A provider request's writes, held until the request ends (or reads) and then made in one
 * statement: a refresh grant marks its token used and saves the rotated refresh token and its
 * access token in one round trip instead of three, a code grant likewise with its code. The
 * response leaves only after that (provider.ts flushes before Koa answers), so a client never
 * holds a token that is not stored, nor one whose code or refresh token was used meanwhile:
 * the new rows are saved only if the old one was still unused, and otherwise the request is
 * refused (`refused`: provider.ts answers invalid_grant). A read in the same request writes
 * first, so it sees its own writes. Outside a provider request (the portal's own routes) a
 * write or a consume goes at once.
 */
function requestWrites(statements: ReturnType<typeof hotStatements>, currentRequest: () => object | undefined, refused: (model: string, id: string) => Promise<never>) {
  type Consume = { model: string; id: string };
  const held = new WeakMap<object, { rows: Map<string, ModelWrite>; consumes: Consume[] }>();

  const columnsOfRows = (rows: ModelWrite[]) => {
    const column = (key: keyof ModelWrite) => rows.map((row) => row[key]);
    return {
      model: column('model'),
      id: column('id'),
      payload: column('payload'),
      grantId: column('grantId'),
      userCode: column('userCode'),
      uid: column('uid'),
      accountId: column('accountId'),
      clientId: column('clientId'),
      sessionUid: column('sessionUid'),
      expiresAt: column('expiresAt'),
    };
  };

  async function consumeNow({ model, id }: Consume): Promise<void> {
    if ((await statements.consume.execute({ model, id })).length === 0) await refused(model, id);
  }

  async function write(rows: ModelWrite[], consumes: Consume[]): Promise<void> {
    const saves = (consume: Consume) => rows.some((row) => row.model === consume.model && row.id === consume.id);
    const [only] = consumes;
    // One consume and rows that do not include it (a grant's rotation): one statement.
    if (only && consumes.length === 1 && rows.length > 0 && !saves(only)) {
      const saved = await statements.consumeAndUpsert.execute({ ...columnsOfRows(rows), consumedModel: only.model, consumedId: only.id });
      if (saved.length === 0) await refused(only.model, only.id);
      return;
    }
    // Anything else in turn: a row saved and used in the same request is saved first.
    const rowsFirst = consumes.some(saves);
    if (rowsFirst && rows.length > 0) await statements.upsert.execute(columnsOfRows(rows));
    for (const consume of consumes) await consumeNow(consume);
    if (!rowsFirst && rows.length > 0) await statements.upsert.execute(columnsOfRows(rows));
  }

  const heldBy = (request: object) => {
    let writes = held.get(request);
    if (!writes) held.set(request, (writes = { rows: new Map(), consumes: [] }));
    return writes;
  };

  return {
    async add(row: ModelWrite): Promise<void> {
      const request = currentRequest();
      if (!request) return write([row], []);
      // A second save of the same row replaces the first, as two upserts one after the other would.
      heldBy(request).rows.set(`${row.model}:${row.id}`, row);
    },
    async consume(consume: Consume): Promise<void> {
      const request = currentRequest();
      if (!request) return consumeNow(consume);
      heldBy(request).consumes.push(consume);
    },
    /** Makes what `request` holds (by default the provider request this runs in). */
    async flush(request = currentRequest()): Promise<void> {
      const writes = request && held.get(request);
      if (!writes) return;
      held.delete(request);
      await write([...writes.rows.values()], writes.consumes);
    },
  };
}

/**
 * Finds of the same id under several models in one tick become one statement: introspection
 * and userinfo look an opaque token up as an access token, client-credentials token and
 * refresh token at once (oidc-provider's token_find.js).
 */
function findBatcher(find: FindStatement, handoff: ReturnType<typeof grantHandoff>) {
  type Waiter = { resolve: (row: ModelRow | undefined) => void; reject: (error: unknown) => void };
  const pending = new Map<string, Map<string, Waiter[]>>();

  async function flush(id: string) {
    const byModel = pending.get(id)!;
    pending.delete(id);
    try {
      const rows = await find.execute({ id, models: [...byModel.keys()] });
      for (const [model, waiters] of byModel) {
        const row = rows.find((candidate) => candidate.model === model);
        const grantId = row?.payload.grantId;
        if (row?.grantPayload && typeof grantId === 'string') handoff.offer(grantId, row.grantPayload);
        for (const waiter of waiters) waiter.resolve(row);
      }
    } catch (error) {
      for (const waiters of byModel.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }

  return (model: string, id: string): Promise<ModelRow | undefined> =>
    new Promise((resolve, reject) => {
      let byModel = pending.get(id);
      if (!byModel) {
        byModel = new Map();
        pending.set(id, byModel);
        queueMicrotask(() => void flush(id));
      }
      byModel.set(model, [...(byModel.get(model) ?? []), { resolve, reject }]);
    });
}

/**
 * oidc-provider's storage on our database (PGlite or PostgreSQL, through drizzle): one table
 * of models keyed by (model, id). Expired rows are invisible at once and deleted hourly (sweep.ts).
 * The `Client` model reads the outside apps registered by `npm run clients` (their secrets
 * are hashes: see `compareClientSecret` in provider.ts).
 */
export function createAdapterFactory(
  db: Database,
  options: {
    currentRequest?: () => object | undefined;
    /** The provider session a revocation request ends the tokens of (token-policies.ts), when it is one. */
    revocationSignIn?: () => string | undefined;
  } = {},
) {
  const live = (model: string) => and(eq(oidcModels.model, model), liveRow(oidcModels.expiresAt));
  const statements = hotStatements(db);
  const handoff = grantHandoff();
  const findRow = findBatcher(statements.find, handoff);
  // The provider request a model call runs in: oidc-provider keeps it (AsyncLocalStorage) as Provider.ctx.
  const writes = requestWrites(statements, options.currentRequest ?? (() => Provider.ctx), async (model, id) => {
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
    await db.delete(oidcModels).where(or(eq(oidcModels.grantId, row.grantId), and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, row.grantId))));
  }

  class ClientAdapter implements Adapter {
    async upsert(): Promise<void> {
      throw new Error('clients are registered with `npm run clients`');
    }
    /**
     * Read on every lookup, never cached here (oidc-provider keeps built clients by a hash of
     * what this answers): an app registered, changed or disabled through any node holds on
     * every node from its next request. A disabled app is not found, so the provider signs
     * nobody in for it, refreshes none of its tokens and answers none of them at userinfo.
     */
    async find(id: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oauthClients)
        .where(and(eq(oauthClients.clientId, id), isNull(oauthClients.disabledAt)))
        .limit(1);
      if (!row) return undefined;
      // An outside app asks a person for their scopes only: the products' own back-end scopes
      // (MODERATORS_SCOPE) are refused as invalid_scope, whatever its stored metadata says.
      return { ...row.metadata, scope: outsideAppScope(row.metadata.scope), client_id: row.clientId, ...(row.secretHash ? { client_secret: `sha256:${row.secretHash}` } : {}) } as AdapterPayload;
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
      if (this.model === 'Grant') handoff.forget(id);
      await writes.add({
        ...columnsOf(this.model, id, payload),
        model: this.model,
        payload: JSON.stringify(payload),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      await writes.flush();
      if (this.model === 'Grant') {
        const handed = handoff.take(id);
        if (handed) return handed as AdapterPayload;
      }
      return unpack(await findRow(this.model, id));
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
      await writes.consume({ model: this.model, id });
    }

    async destroy(id: string): Promise<void> {
      await writes.flush();
      if (this.model === 'Grant') handoff.forget(id);
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await writes.flush();
      handoff.forget(grantId);
      // An app's revocation ends its tokens of one sign-in; the grant's others (other browsers) stay.
      const signIn = options.revocationSignIn?.();
      await db
        .delete(oidcModels)
        .where(and(eq(oidcModels.model, this.model), eq(oidcModels.grantId, grantId), signIn ? eq(oidcModels.sessionUid, signIn) : undefined));
    }
  }

  return {
    adapterFor: (model: string): Adapter => (model === 'Client' ? new ClientAdapter() : new ModelAdapter(model)),
    /** Makes the writes a provider request held (its end: before the response leaves). */
    flushRequest: (request: object) => writes.flush(request),
  };
}

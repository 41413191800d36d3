import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias, QueryBuilder, type PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { oidcModels, oidcSessionLinks } from '../../db/schema';
import { groupedUpserts } from './grouped-upserts';
import { liveRow } from './model-rows';

/**
 * The statements of a token grant, prepared once: drizzle builds a query's SQL on every call
 * otherwise (a measurable share of a refresh grant's CPU), and PostgreSQL parses a named
 * statement once per connection.
 */
export function hotStatements(db: Database) {
  const t = oidcModels;
  const grant = alias(oidcModels, 'grant_row');
  const remembered = alias(oidcModels, 'remembered_grant');
  // The account and app of an interaction's authorization (oidc-provider's Interaction payload).
  const interactionAccount = sql<string | null>`coalesce(${t.payload} #>> '{result,login,accountId}', ${t.payload} #>> '{session,accountId}')`;
  const interactionClient = sql<string | null>`${t.payload} #>> '{params,client_id}'`;
  const rememberedGrant = db
    .select({ id: remembered.id, payload: remembered.payload })
    .from(remembered)
    .where(
      and(
        eq(remembered.model, 'Grant'),
        eq(remembered.accountId, interactionAccount),
        eq(remembered.clientId, interactionClient),
        liveRow(remembered.expiresAt),
      ),
    )
    .orderBy(desc(remembered.expiresAt))
    .limit(1)
    .as('remembered');
  const findRowsWhere = (modelIs: SQL) =>
    db
      .select({ model: t.model, payload: t.payload, consumedAt: t.consumedAt, grantPayload: grant.payload })
      .from(t)
      .leftJoin(grant, and(eq(grant.model, 'Grant'), eq(grant.id, t.grantId), liveRow(grant.expiresAt)))
      .where(and(modelIs, eq(t.id, sql.placeholder('id')), liveRow(t.expiresAt)));
  return {
    /** The rows of `id` among `models`, each with its live grant's payload when it has one (the same snapshot). */
    find: findAmongModels(
      findRowsWhere(eq(t.model, sql.placeholder('model1'))).prepare('oidc_models_find'),
      findRowsWhere(sql`${t.model} in (${sql.placeholder('model1')}, ${sql.placeholder('model2')}, ${sql.placeholder('model3')})`).prepare('oidc_models_find_among'),
    ),
    /**
     * An interaction with the person's latest live grant for its app: the account its login
     * names (else its session's) and its client, as a resume's loadExistingGrant asks next
     * (existing-grant.ts, rememberedGrant). One statement instead of two on every authorization.
     */
    findInteraction: db
      .select({
        payload: t.payload,
        consumedAt: t.consumedAt,
        accountId: interactionAccount.as('interaction_account'),
        clientId: interactionClient.as('interaction_client'),
        grantId: rememberedGrant.id,
        grantPayload: rememberedGrant.payload,
      })
      .from(t)
      .leftJoinLateral(rememberedGrant, sql`true`)
      .where(and(eq(t.model, 'Interaction'), eq(t.id, sql.placeholder('id')), liveRow(t.expiresAt)))
      .prepare('oidc_models_find_interaction'),
    consume: db
      .update(t)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(t.model, sql.placeholder('model')), eq(t.id, sql.placeholder('id')), isNull(t.consumedAt)))
      .returning({ id: t.id })
      .prepare('oidc_models_consume'),
    /**
     * Saves rows, one or several in one statement (a provider request's writes: requestWrites),
     * with those of the requests that end while one is on its way (grouped-upserts.ts).
     */
    upsert: groupedUpserts(upsertRows(db.insert(t).select(rowsOfDocument())).prepare('oidc_models_upsert')),
    /**
     * Saves interactions (a sign-in in progress), committed without waiting for the disk: after
     * a database crash the last ones saved may be gone, and the person starts that sign-in again
     * ("This sign-in request has expired"). An interaction grants nothing by itself, and the
     * first write that does wait for the disk (the code's exchange at the latest) makes the
     * interaction's rows durable too: PostgreSQL writes its log in order and flushes it up to
     * its own commit.
     */
    upsertInteractions: upsertRows(db.insert(t).select(sql`${rowsOfDocument()} where ${commitWithoutWaitingForDisk}`)).prepare('oidc_models_upsert_interactions'),
    /**
     * Marks one code or token used and saves rows, only if it was unused, in one statement: a
     * refresh grant consumes its token and stores the rotated one with its access token. The
     * rows it answers are those saved: none when the token was already used.
     */
    consumeAndUpsert: upsertRows(db.with(consumed).insert(t).select(sql`${rowsOfDocument()} where exists (select 1 from ${consumed})`))
      .returning({ id: t.id })
      .prepare('oidc_models_consume_upsert'),
    /**
     * Saves rows, links the provider session to the portal session it stands on
     * (`linkSessionUid`, `linkPortalSessionId`) and deletes the rows `removeModel` and `removeId`
     * name (none of them saved here), in one statement: an authorization's writes (its code,
     * grant and provider session), committed without waiting for the disk. A code is worth
     * something only at its exchange, whose statement waits for the disk and so flushes this
     * one's log first (PostgreSQL flushes its log in order, up to the commit it waits for).
     * After a database crash between the two, the whole authorization is gone together (a
     * statement's rows, link and deletions commit as one): the exchange answers invalid_grant,
     * the provider session is unknown to the browser's cookie, and the app signs the person in
     * again. Nothing is granted that is not stored; nothing revoked comes back.
     */
    upsertLinked: upsertRows(db.with(linked, removed).insert(t).select(sql`${rowsOfDocument()} where ${commitWithoutWaitingForDisk}`)).prepare('oidc_models_upsert_linked'),
    /** Deletes rows (`removeModel`, `removeId`): interactions a request ended. */
    remove: db
      .delete(t)
      .where(sql`(${t.model}, ${t.id}) in (select * from unnest(${sql.placeholder('removeModel')}::text[], ${sql.placeholder('removeId')}::text[]))`)
      .prepare('oidc_models_remove'),
    /** A person's latest live grant for a client, with its payload (a new provider session's authorization). */
    remembered: db
      .select({ id: t.id, payload: t.payload })
      .from(t)
      .where(and(eq(t.model, 'Grant'), eq(t.accountId, sql.placeholder('accountId')), eq(t.clientId, sql.placeholder('clientId')), liveRow(t.expiresAt)))
      .orderBy(desc(t.expiresAt))
      .limit(1)
      .prepare('oidc_models_remembered_grant'),
    /** The portal session a provider session stands on (its link), if it has one. */
    linkedPortalSession: db
      .select({ portalSessionId: oidcSessionLinks.portalSessionId })
      .from(oidcSessionLinks)
      .where(eq(oidcSessionLinks.sessionUid, sql.placeholder('sessionUid')))
      .prepare('oidc_session_links_portal_session'),
    /** The link alone (an authorization that saved nothing). */
    link: db
      .insert(oidcSessionLinks)
      .values({ sessionUid: sql.placeholder('linkSessionUid'), portalSessionId: sql.placeholder('linkPortalSessionId') })
      .onConflictDoUpdate({ target: oidcSessionLinks.sessionUid, set: { portalSessionId: sql`excluded.portal_session_id` } })
      .prepare('oidc_session_links_upsert'),
  };
}

/**
 * A find by id among one model or three, each its own prepared statement with one placeholder
 * per model. PostgreSQL keeps a prepared statement's one plan for every value only when that
 * plan looks no dearer than the plans made for the values seen: with the models as one array
 * (`model = any($1)`) it priced the array at ten models, dearer than the one a refresh grant
 * asks for, and so planned the statement anew on every grant (a quarter of the database's CPU
 * under refresh grants). The provider asks for one model, or for three at once (token_find.js);
 * fewer than three are padded with the last, more are asked three at a time.
 */
function findAmongModels<Row>(
  one: { execute(parameters: { id: string; model1: string }): Promise<Row[]> },
  three: { execute(parameters: { id: string; model1: string; model2: string; model3: string }): Promise<Row[]> },
) {
  return {
    async execute({ id, models }: { id: string; models: string[] }): Promise<Row[]> {
      if (models.length === 1) return one.execute({ id, model1: models[0]! });
      const threes: string[][] = [];
      for (let at = 0; at < models.length; at += 3) threes.push(models.slice(at, at + 3));
      const found = await Promise.all(threes.map(([model1, model2 = model1, model3 = model2]) => three.execute({ id, model1: model1!, model2: model2!, model3: model3! })));
      return found.flat();
    },
  };
}

/** The rows of a write, one JSON document (`rows`: model-rows.ts, rowsDocument): any number of rows in one statement. */
const rowsOfDocument = () =>
  // The table's columns in its order (drizzle inserts into all of them), consumed_at empty.
  sql`select model, id, payload, "grantId", "userCode", uid, "accountId", "clientId", "sessionUid", "expiresAt", null::timestamptz
      from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb)
        as rows(model text, id text, payload jsonb, "grantId" text, "userCode" text, uid text, "accountId" text, "clientId" text, "sessionUid" text, "expiresAt" timestamptz)`;

/**
 * Sets synchronous_commit off for the statement's own transaction (a statement outside a
 * transaction block commits as it ends; set_config's `true`: this transaction only). A one-time
 * filter, evaluated before the first row.
 */
const commitWithoutWaitingForDisk = sql`(select set_config('synchronous_commit', 'off', true)) = 'off'`;

/** The code or token `consumeAndUpsert` marks used (its `consumedModel` and `consumedId`), when it was unused. */
const consumed = (() => {
  const t = oidcModels;
  return new QueryBuilder().$with('consumed', { id: sql<string>`id` }).as(
    sql`update ${t} set ${sql.identifier(t.consumedAt.name)} = now()
        where ${t.model} = ${sql.placeholder('consumedModel')} and ${t.id} = ${sql.placeholder('consumedId')} and ${t.consumedAt} is null
        returning ${t.id}`,
  );
})();

/** The link `upsertLinked` makes (PostgreSQL runs a data-modifying WITH whether or not the statement reads it). */
const linked = (() => {
  const l = oidcSessionLinks;
  return new QueryBuilder().$with('linked', { sessionUid: sql<string>`session_uid` }).as(
    sql`insert into ${l} (${sql.identifier(l.sessionUid.name)}, ${sql.identifier(l.portalSessionId.name)})
        values (${sql.placeholder('linkSessionUid')}, ${sql.placeholder('linkPortalSessionId')}::uuid)
        on conflict (${sql.identifier(l.sessionUid.name)}) do update set ${sql.identifier(l.portalSessionId.name)} = excluded.${sql.identifier(l.portalSessionId.name)}
        returning ${l.sessionUid}`,
  );
})();

/** The rows `upsertLinked` deletes. */
const removed = (() => {
  const t = oidcModels;
  return new QueryBuilder().$with('removed', { id: sql<string>`id` }).as(
    sql`delete from ${t}
        where (${t.model}, ${t.id}) in (select * from unnest(${sql.placeholder('removeModel')}::text[], ${sql.placeholder('removeId')}::text[]))
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

export type HotStatements = ReturnType<typeof hotStatements>;
export type FindStatement = HotStatements['find'];

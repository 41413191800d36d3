import { and, asc, desc, eq, getTableColumns, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oauthClients, webhookDeliveries, webhookEndpoints } from '../../db/schema';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery claimed by a worker: the event, where it goes and the sealed secret that signs it. */
export interface ClaimedDelivery {
  id: number;
  eventId: string;
  payload: WebhookDeliveryRow['payload'];
  attempts: number;
  leaseUntil: Date;
  url: string | null;
  secret: string | null;
  enabled: boolean | null;
}

/** A delivery's payload as the app may read it under `scopes`: a user event's person cut to them (migration 0044). */
const released = (delivery: { type: SQL | typeof webhookDeliveries.type; payload: SQL | typeof webhookDeliveries.payload }, scopes: SQL) =>
  sql`case when ${delivery.type} like 'user.%'
    then jsonb_set(${delivery.payload}, '{data}', "webhook_released"(${delivery.payload} -> 'data', ${scopes}))
    else ${delivery.payload} end`;

/**
 * The webhooks module's queries. Deliveries are queued by the triggers of migration
 * 0031_webhooks (never here); these set endpoints, claim and settle deliveries, and read the log.
 */
export function webhookQueries(db: Database) {
  return {
    async appExists(clientId: string): Promise<boolean> {
      const rows = await db.select({ id: oauthClients.clientId }).from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
      return rows.length > 0;
    },

    /** Every outside app with its endpoint and its waiting and failed deliveries. */
    async apps(clientId?: string) {
      const pending = sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.client_id = ${oauthClients.clientId} and d.status = 'pending')`;
      const failed = sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.client_id = ${oauthClients.clientId} and d.status = 'failed')`;
      return db
        .select({ clientId: oauthClients.clientId, metadata: oauthClients.metadata, endpoint: webhookEndpoints, pending, failed })
        .from(oauthClients)
        .leftJoin(webhookEndpoints, eq(webhookEndpoints.clientId, oauthClients.clientId))
        .where(clientId === undefined ? undefined : eq(oauthClients.clientId, clientId))
        .orderBy(asc(oauthClients.clientId));
    },

    /** Inserts or updates the endpoint; `secret` is stored only for a new one. Returns the row and whether it is new. */
    async upsertEndpoint(clientId: string, settings: { url: string; events: string[]; enabled: boolean }, sealedSecret: string, now: Date) {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ clientId, ...settings, secret: sealedSecret, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: webhookEndpoints.clientId, set: { ...settings, updatedAt: now } })
        // xmax is 0 on a row this statement inserted (not one it updated).
        .returning({ ...getTableColumns(webhookEndpoints), created: sql<boolean>`(xmax = 0)` });
      const { created, ...endpoint } = row!;
      return { endpoint, created };
    },

    async setSecret(clientId: string, sealedSecret: string, now: Date): Promise<boolean> {
      const rows = await db.update(webhookEndpoints).set({ secret: sealedSecret, updatedAt: now }).where(eq(webhookEndpoints.clientId, clientId)).returning({ id: webhookEndpoints.clientId });
      return rows.length > 0;
    },

    /** Removes the endpoint; its waiting deliveries fail at once (nothing will be sent to it). */
    async removeEndpoint(clientId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.clientId, clientId)).returning({ id: webhookEndpoints.clientId });
        if (!rows.length) return false;
        await tx
          .update(webhookDeliveries)
          .set({ status: 'failed', lastError: 'endpoint_removed', leaseUntil: null })
          .where(and(eq(webhookDeliveries.clientId, clientId), eq(webhookDeliveries.status, 'pending')));
        return true;
      });
    },

    /**
     * Claims up to `limit` due deliveries for `leaseMs`, in one short statement: rows locked by
     * another worker are skipped (`FOR UPDATE SKIP LOCKED`), and a delivery is due only when no
     * earlier one of the same person to the same endpoint is still pending, so a person's
     * events reach an endpoint in order and one at a time, whichever node sends them. Each goes
     * as the person allows the app now (migration 0046): a user event is cut to the scopes of the
     * app's grant, and one the app may no longer be told fails here, `not_allowed`, unsent
     * (`refused` counts them).
     *
     * Unnamed on purpose, so PostgreSQL plans it at every call (about 0.4 ms of a warm backend),
     * for the sizes the queue has then. A named statement soon runs a cached generic plan, and
     * one made while the queue was empty checks each due delivery against every pending one
     * (the order index read whole, then filtered) instead of looking up its person's earlier
     * deliveries: with 3,000 pending that plan took 7.8 ms and filtered 60,000 rows per claim.
     */
    async claim(now: Date, limit: number, leaseMs: number): Promise<{ deliveries: ClaimedDelivery[]; refused: number }> {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const result = await db.execute<{
        id: string;
        event_id: string;
        payload: WebhookDeliveryRow['payload'] | string;
        attempts: number;
        sendable: boolean;
        url: string | null;
        secret: string | null;
        enabled: boolean | null;
      }>(sql`
        with due as (
          select d.id from ${webhookDeliveries} d
          where d.status = 'pending' and d.next_attempt_at <= ${now} and (d.lease_until is null or d.lease_until <= ${now})
            and not exists (
              select 1 from ${webhookDeliveries} p
              where p.client_id = d.client_id and p.subject = d.subject and p.status = 'pending' and p.id < d.id
            )
          order by d.next_attempt_at, d.id
          limit ${limit}
          for update skip locked
        ), granted as materialized (
          -- Materialized, as judged: inlined, each use of scopes and sendable below would call the functions again.
          select d.id, d.type, d.subject, "webhook_granted_scopes"(d.subject::text, d.client_id) as scopes
          from due join ${webhookDeliveries} d on d.id = due.id
        ), judged as materialized (
          select id, scopes, "webhook_sendable"(type, subject, scopes) as sendable from granted
        ), claimed as (
          update ${webhookDeliveries} d set
            lease_until = case when judged.sendable then ${leaseUntil}::timestamptz end,
            attempts = d.attempts + case when judged.sendable then 1 else 0 end,
            status = case when judged.sendable then d.status else 'failed' end,
            last_error = case when judged.sendable then d.last_error else 'not_allowed' end,
            last_status_code = case when judged.sendable then d.last_status_code end,
            payload = ${released({ type: sql`d.type`, payload: sql`d.payload` }, sql`judged.scopes`)}
          from judged where d.id = judged.id
          returning d.id, d.event_id, d.payload, d.attempts, d.client_id, judged.sendable
        )
        select claimed.id, claimed.event_id, claimed.payload, claimed.attempts, claimed.sendable, e.url, e.secret, e.enabled
        from claimed left join ${webhookEndpoints} e on e.client_id = claimed.client_id
        order by claimed.id`);
      const sendable = result.rows.filter((row) => row.sendable);
      const deliveries = sendable.map((row) => ({
        id: Number(row.id),
        eventId: row.event_id,
        payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
        attempts: Number(row.attempts),
        leaseUntil,
        url: row.url,
        secret: row.secret,
        enabled: row.enabled,
      }));
      return { deliveries, refused: result.rows.length - sendable.length };
    },

    /**
     * What one attempt came to, written only while the worker still holds the claim (its lease
     * unchanged): a worker that outlived its lease does not overwrite the next one's result.
     */
    async settle(
      claimed: Pick<ClaimedDelivery, 'id' | 'leaseUntil'>,
      outcome: { status: 'pending' | 'delivered' | 'failed'; statusCode: number | null; error: string | null; nextAttemptAt: Date | null; at: Date },
    ): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({
          status: outcome.status,
          lastStatusCode: outcome.statusCode,
          lastError: outcome.error,
          leaseUntil: null,
          ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
          ...(outcome.status === 'delivered' ? { deliveredAt: outcome.at } : {}),
        })
        .where(and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.leaseUntil, claimed.leaseUntil)));
    },

    /** Many successes of one claim in one statement (a round's worth): each with the status its receiver answered. */
    async settleDelivered(delivered: Array<{ id: number; statusCode: number }>, leaseUntil: Date, at: Date): Promise<void> {
      if (!delivered.length) return;
      const rows = sql.join(
        delivered.map((row) => sql`(${row.id}::bigint, ${row.statusCode}::int)`),
        sql`, `,
      );
      await db.execute(sql`
        update ${webhookDeliveries} d
        set status = 'delivered', last_status_code = v.code, last_error = null, lease_until = null, delivered_at = ${at}
        from (values ${rows}) as v(id, code)
        where d.id = v.id and d.lease_until = ${leaseUntil}`);
    },

    async deliveries(clientId: string, filter: { status?: string; before?: number; limit: number }): Promise<WebhookDeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.clientId, clientId),
            filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
            filter.before !== undefined ? lt(webhookDeliveries.id, filter.before) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(filter.limit);
    },

    /**
     * Queues a delivery again now with a fresh day of retries; same event id, so receivers drop it
     * if they had it. It goes as the person allows the app now (migration 0046's webhook_allowed:
     * the claim's rule without its exception for an erased account): a user event's person cut to
     * the scopes of the app's live grant, and nothing without one (user.deleted, the id alone,
     * excepted), user.email_changed only with `email`, membership events only with `profile`. `refused`: the delivery is there, and the app may
     * no longer be told it. One a worker is sending now is answered as it is, left to that worker.
     */
    async redeliver(clientId: string, id: number, now: Date): Promise<{ row?: WebhookDeliveryRow; refused?: true }> {
      const scopes = sql`"webhook_granted_scopes"(${webhookDeliveries.subject}::text, ${webhookDeliveries.clientId})`;
      // Not webhook_sendable: its exception for an erased account is for what was waiting at the erasure, not the log.
      const allowed = sql`(${webhookDeliveries.type} = 'user.deleted' or "webhook_allowed"(${webhookDeliveries.type}, ${scopes}))`;
      // A delivery a worker holds (being sent now) is left to it: clearing its lease would hand it to a second worker.
      const held = sql`(${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.leaseUntil} > ${now})`;
      const where = and(eq(webhookDeliveries.clientId, clientId), eq(webhookDeliveries.id, id), sql`exists (select 1 from ${webhookEndpoints} e where e.client_id = ${clientId})`);
      const [row] = await db
        .update(webhookDeliveries)
        .set({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          leaseUntil: null,
          lastError: null,
          payload: released(webhookDeliveries, scopes),
        })
        .where(and(where, allowed, sql`not ${held}`))
        .returning();
      if (row) return { row };
      const [there] = await db.select({ ...getTableColumns(webhookDeliveries), held: sql<boolean>`${held}` }).from(webhookDeliveries).where(where);
      if (!there) return {};
      const { held: beingSent, ...delivery } = there;
      return beingSent ? { row: delivery } : { refused: true };
    },

    /** Forgets settled deliveries older than `before` (the log keeps `retention` of history). */
    async prune(before: Date): Promise<void> {
      await db.delete(webhookDeliveries).where(and(sql`${webhookDeliveries.status} <> 'pending'`, lt(webhookDeliveries.createdAt, before)));
    },
  };
}

export type WebhookQueries = ReturnType<typeof webhookQueries>;

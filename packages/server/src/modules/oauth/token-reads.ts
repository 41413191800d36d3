import type { FindStatement } from './adapter-statements';
import type { ModelRow } from './model-rows';

/**
 * How long a grant read with its token waits for the provider's Grant.find of the same request
 * (a few milliseconds apart, more under load). Short, because an entry whose request never got
 * there could otherwise answer another request's Grant.find with what another node revoked.
 */
export const HANDOFF_MS = 500;

/**
 * Grants read together with a token (one statement), handed to the Grant.find that the same
 * request makes right after (refresh, code, introspection, userinfo), then forgotten: not a
 * cache, each entry is used once. It reads the grant in the token's own snapshot, so it is
 * never staler than reading it a moment later: a revocation landing between the two reads
 * is indistinguishable from one landing just after, and the refresh and code grants then
 * meet it at `consume` (the token's row is gone: the conditional UPDATE finds nothing and
 * the request is refused). Another node's revocation deletes the token rows, which every
 * request reads from the database (or from token-cache.ts, which the deletion's notification
 * empties of them), so nothing here can outlive it. A grant saved or deleted
 * in this process drops its entry.
 */
export function grantHandoff() {
  const waiting = new Map<string, { payload: Record<string, unknown>; at: number }>();
  return {
    /** `readAt`: when the grant was read (by default now). */
    offer(grantId: string, payload: Record<string, unknown>, readAt = Date.now()) {
      const now = Date.now();
      if (waiting.size > 1000) for (const [id, entry] of waiting) if (now - entry.at > HANDOFF_MS) waiting.delete(id);
      waiting.set(grantId, { payload, at: readAt });
    },
    take(grantId: string): Record<string, unknown> | undefined {
      const entry = waiting.get(grantId);
      waiting.delete(grantId);
      return entry && Date.now() - entry.at <= HANDOFF_MS ? entry.payload : undefined;
    },
    forget: (grantId: string) => void waiting.delete(grantId),
  };
}

/**
 * A row as the find statement answers it: with its live grant's payload when it has one, and,
 * for a row kept since (token-cache.ts), when that grant was read from the database.
 */
export type FoundRow = ModelRow & { grantPayload?: Record<string, unknown> | null; grantReadAt?: number };

/** Hands the grant read with `row` to the Grant.find that follows (grantHandoff). */
export function offerGrantOf(row: FoundRow, handoff: ReturnType<typeof grantHandoff>): void {
  const grantId = row.payload.grantId;
  if (row.grantPayload && typeof grantId === 'string') handoff.offer(grantId, row.grantPayload);
}

/**
 * Finds of the same id under several models in one tick become one statement: introspection
 * and userinfo look an opaque token up as an access token, client-credentials token and
 * refresh token at once (oidc-provider's token_find.js).
 */
export function findBatcher(find: FindStatement, handoff: ReturnType<typeof grantHandoff>) {
  type Waiter = { resolve: (row: FoundRow | undefined) => void; reject: (error: unknown) => void };
  const pending = new Map<string, Map<string, Waiter[]>>();

  async function flush(id: string) {
    const byModel = pending.get(id)!;
    pending.delete(id);
    try {
      const rows = await find.execute({ id, models: [...byModel.keys()] });
      for (const [model, waiters] of byModel) {
        const row = rows.find((candidate) => candidate.model === model);
        if (row) offerGrantOf(row, handoff);
        for (const waiter of waiters) waiter.resolve(row);
      }
    } catch (error) {
      for (const waiters of byModel.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }

  return (model: string, id: string): Promise<FoundRow | undefined> =>
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

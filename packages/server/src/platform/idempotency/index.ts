import { and, eq, lt } from 'drizzle-orm';
import type { ErrorCode } from '@portal/contracts';
import type { Database } from '../../db/client';
import { idempotencyKeys } from './tables';
import type { Clock } from '../clock';
import { sha256 } from '../crypto';
import { AppError } from '../errors';

/** What a finished key answers again: the result, or the refusal it gave (a decline is an answer too). */
type Stored<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string; params: Record<string, string | number>; details?: Record<string, unknown> };

export interface IdempotencyOptions {
  /** How long a run holds its key before another caller may take it over (a node died mid-run). */
  leaseMs?: number;
}

/**
 * Idempotency keys (shared by billing and the wallet): the first request with a scope's key
 * runs, and every later one with the same key and the same request answers that first result,
 * refusals included, without running again. A different request under a used key, or one
 * while the first still runs, is refused (`billing.idempotency_conflict`). A run whose node died
 * keeps its key for `leaseMs`, then the next request takes it over: the work must itself be
 * safe to repeat (billing charges through the processor with the same key).
 * Unexpected failures (not an AppError) free the key so the request can be retried.
 */
export function createIdempotency(db: Database, clock: Clock) {
  return {
    async run<T>(scope: string, key: string, request: unknown, work: () => Promise<T>, options: IdempotencyOptions = {}): Promise<T> {
      const requestHash = sha256(JSON.stringify(request ?? null));
      const now = clock.now();
      const lease = new Date(now.getTime() + (options.leaseMs ?? 60_000));
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ scope, key, requestHash, state: 'pending', lockedUntil: lease })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length === 0) {
        const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
        if (!row || row.requestHash !== requestHash) throw new AppError('billing.idempotency_conflict');
        if (row.state === 'done') return replay(row.response as Stored<T>);
        // Still running elsewhere, unless its lease ran out: take it over in one statement.
        const taken = await db
          .update(idempotencyKeys)
          .set({ lockedUntil: lease })
          .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'pending'), lt(idempotencyKeys.lockedUntil, now)))
          .returning({ key: idempotencyKeys.key });
        if (taken.length === 0) throw new AppError('billing.idempotency_conflict');
      }
      let stored: Stored<T>;
      try {
        stored = { ok: true, value: await work() };
      } catch (error) {
        if (!(error instanceof AppError)) {
          await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
          throw error;
        }
        stored = { ok: false, code: error.code, message: error.message, params: error.params, ...(error.details ? { details: error.details } : {}) };
      }
      await db
        .update(idempotencyKeys)
        .set({ state: 'done', response: stored, lockedUntil: null })
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
      return replay(stored);
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;

function replay<T>(stored: Stored<T>): T {
  if (stored.ok) return stored.value;
  const error = new AppError(stored.code, stored.params, stored.details);
  // A field error's message is its field's, not the catalogue's 'Invalid data'.
  error.message = stored.message;
  throw error;
}

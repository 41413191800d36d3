import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { DataProtection } from '../../platform/data-protection';
import { egressSend, EgressRefused, type EgressPolicy } from '../../platform/egress';
import { webhookQueries, type ClaimedDelivery } from './queries';
import { MAX_ATTEMPTS, nextAttemptAfter } from './schedule';
import { signerFor, type Signer } from './signing';

export interface DeliveryWorkerOptions {
  db: Database;
  clock: Clock;
  secrets: DataProtection;
  egress: EgressPolicy;
  /** Deliveries claimed per round (one statement). */
  batchSize?: number;
  /**
   * Attempts in flight at once on this node. An attempt costs its CPU whether it waits alone or
   * beside others; waiting is what bounds a node's rate on a busy machine (each answer waits for
   * the receiver's process to be scheduled), so a few more in flight keep the rate without taking
   * more from the requests the node serves. Still bounded: a receiver gets at most this many.
   */
  concurrency?: number;
  /** Pause between rounds of a run, so the requests that came in meanwhile are served first. */
  pauseMs?: number;
  /**
   * How long a claim holds: past it another worker may take the delivery again (a crashed node).
   * By default long enough for a whole batch to time out lane by lane, so a slow receiver's
   * deliveries are not claimed again while they are still being sent.
   */
  leaseMs?: number;
  /** One run stops claiming after this long, so a job's run ends and the node can close. */
  runBudgetMs?: number;
}

/** Rounds a run keeps going at once on the node's lanes while there is a backlog. */
const ROUNDS_AT_ONCE = 2;
/** A receiver has this long to answer (Standard Webhooks suggests a short timeout; retries follow). */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** A receiver's answer is not read beyond this: only its status counts. */
const ANSWER_LIMIT_BYTES = 64 * 1024;

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

/**
 * Sends due deliveries: claims a batch, sends each (signed, through the egress guard), records
 * what the receiver answered, and goes on until nothing is due or the run's budget is spent.
 * Any number of workers on any number of nodes may run at once: the claim never hands one
 * delivery to two of them, nor a person's later event before an earlier one.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const queries = webhookQueries(options.db);
  const batchSize = options.batchSize ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const pauseMs = options.pauseMs ?? 5;
  // A claimed batch may wait for lanes the other round holds: its lease covers both batches timing out lane by lane.
  const leaseMs = options.leaseMs ?? Math.ceil((ROUNDS_AT_ONCE * batchSize) / concurrency) * ATTEMPT_TIMEOUT_MS + 30_000;
  const runBudgetMs = options.runBudgetMs ?? 10_000;
  const policy: EgressPolicy = { ...options.egress, timeoutMs: ATTEMPT_TIMEOUT_MS, maxResponseBytes: ANSWER_LIMIT_BYTES };

  // Signers by the secret's sealed form: every delivery to one endpoint shares one (opened and decoded once).
  const signers = new Map<string, Signer>();
  const signerOf = (sealed: string) => {
    let signer = signers.get(sealed);
    if (signer === undefined) {
      if (signers.size > 1000) signers.clear();
      signers.set(sealed, (signer = signerFor(options.secrets.open(sealed))));
    }
    return signer;
  };

  /** Sends one delivery; a success is returned for the round to record with the others, anything else is recorded here. */
  async function attempt(delivery: ClaimedDelivery): Promise<{ id: number; statusCode: number } | null> {
    const at = options.clock.now();
    if (!delivery.url || !delivery.secret || !delivery.enabled) {
      // Removed or disabled since it was queued: nothing is sent, and the log says why.
      await queries.settle(delivery, { status: 'failed', statusCode: null, error: delivery.url ? 'endpoint_disabled' : 'endpoint_removed', nextAttemptAt: null, at });
      return null;
    }
    const body = JSON.stringify(delivery.payload);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      // The signature's time is the wall clock: receivers check it against theirs.
      const headers = { 'content-type': 'application/json', 'user-agent': 'portal-webhooks', ...signerOf(delivery.secret)(delivery.eventId, body, new Date()) };
      // Only the status counts; the answer is dropped and its connection kept for the next delivery.
      statusCode = (await egressSend(delivery.url, { method: 'POST', headers, body }, policy)).status;
      if (statusCode < 200 || statusCode >= 300) error = statusCode >= 300 && statusCode < 400 ? 'redirect_not_followed' : 'status';
    } catch (caught) {
      // Only the kind of failure is kept: a message could carry what the receiver said.
      error = caught instanceof EgressRefused ? `refused_${caught.problem}` : caught instanceof Error && caught.name === 'TimeoutError' ? 'timeout' : 'unreachable';
    }
    if (!error && statusCode !== null) return { id: delivery.id, statusCode };
    const now = options.clock.now();
    const next = delivery.attempts < MAX_ATTEMPTS ? nextAttemptAfter(delivery.attempts, now) : null;
    await queries.settle(delivery, { status: next ? 'pending' : 'failed', statusCode, error, nextAttemptAt: next, at: now });
    return null;
  }

  // The node's lanes, shared by the rounds in progress: never more than `concurrency` attempts in flight.
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  const lane = () => (inFlight < concurrency ? (inFlight++, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  const freeLane = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };

  /** Sends the claimed batch, in claim order, each as a lane is free; the successes. */
  async function sendAll(claimed: ClaimedDelivery[]): Promise<Array<{ id: number; statusCode: number }>> {
    const results: Array<Promise<{ id: number; statusCode: number } | null>> = [];
    for (const delivery of claimed) {
      await lane();
      results.push(attempt(delivery).finally(freeLane));
    }
    return (await Promise.all(results)).filter((result) => result !== null);
  }

  /** One round: claims a batch and sends it. Returns how many were claimed (those refused in the claim too). */
  async function round(): Promise<number> {
    const { deliveries: claimed, refused } = await queries.claim(options.clock.now(), batchSize, leaseMs);
    if (!claimed.length) return refused;
    const delivered = await sendAll(claimed);
    // One statement for the round's successes: a row per delivery would cost a database round trip each.
    await queries.settleDelivered(delivered, claimed[0]!.leaseUntil, options.clock.now());
    return claimed.length + refused;
  }

  /**
   * Rounds until nothing is due (or the budget is spent), pausing between them. While a full
   * batch keeps coming (a backlog), a second round goes beside the first, sharing the lanes: one
   * claims and records while the other's attempts are in flight, so the lanes do not stand idle
   * at a round's start and end. A run with less than a batch to send claims alone: a second
   * claim at the same moment would find nothing and still cost the database a statement.
   * Returns how many were claimed.
   */
  async function run(): Promise<number> {
    const started = Date.now();
    let sent = 0;
    let beside: Promise<void> | undefined;
    const rounds = async () => {
      for (;;) {
        const claimed = await round();
        sent += claimed;
        if (claimed === 0 || Date.now() - started > runBudgetMs) return;
        if (claimed >= batchSize && beside === undefined) beside = rounds();
        // A backlog drains in rounds with the request path served between them (timers run after pending I/O).
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    };
    await rounds();
    await beside;
    return sent;
  }

  return { round, run };
}

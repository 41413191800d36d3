import type { FastifyInstance } from 'fastify';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { partnerNotificationSchema, type PartnerTransfer, type PartnerTransferStatus, type WalletCurrency } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { walletPartnerTransfers } from './tables';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { installPeriodicJob } from '../../platform/jobs';
import { egressPolicyFor } from '../../platform/egress';
import { readSignedNotification } from './deposits';
import { reverseEntry, rows } from './ledger';
import { createPartnerClient, type PartnerAnswer } from './partner-client';
import type { TransferRequest, WalletService } from './service';

/** The system account a partner transfer's amount waits in until the partner settles it (reconciled with the partner's statements). */
export const PARTNER_CLEARING_ACCOUNT = 'partner_clearing';
/** A transfer the request itself is delivering (a send and a status question, 10 s each at most) is left to it this long before the job sends it again. */
const RESEND_AFTER_MS = 30_000;
/** A transfer the partner accepted without its callback in this long is asked about by its id. */
const STATUS_AFTER_MS = 15 * 60_000;
const RESEND_BATCH = 50;

/** A recipient at the partner: an email, a phone number (digits, optionally +, spaces, dots or dashes) or a username. */
const RECIPIENT_PATTERNS = [/^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/, /^\+?\d[\d .-]{6,18}\d$/, /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/];

type PartnerConfig = Pick<Config, 'PARTNER_EXCHANGE_URL' | 'PARTNER_EXCHANGE_SECRET' | 'EGRESS_ALLOW_LOOPBACK'>;

/** What the partner adapter writes to the log: never the secret, a signature or a request body. */
export interface PartnerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export type PartnerNotificationResult = { applied: boolean; status: PartnerTransferStatus };

type Row = typeof walletPartnerTransfers.$inferSelect;

/**
 * Transfers to a partner exchange wallet, by the recipient's email, phone or username there. The
 * request moves the money at once, in one transaction (the rules of every transfer out,
 * `WalletService.send`): a pending entry from the person to the system's `partner_clearing`
 * account and a `wallet_partner_transfers` row. The adapter then sends it to the partner
 * (`partner-client.ts`; the partner applies a `transfer_id` once, so sending again after a lost
 * answer is safe). An unclear answer is reconciled by the transfer's id (sent again, or asked
 * about by its id); the money goes back only on the partner's definitive "not delivered" (a
 * refusal of the first send, a status or a signed callback saying rejected): the row turns
 * rejected (`... WHERE status = 'pending'`, under a row lock) and a reversing entry returns the
 * amount and the day's allowance, exactly once however many callbacks and jobs arrive at once.
 */
export function createPartnerTransferService(deps: { db: Database; clock: Clock; config: PartnerConfig; log: PartnerLogger; wallet: WalletService }) {
  const { db, clock, config, log, wallet } = deps;
  const partner = config.PARTNER_EXCHANGE_URL && config.PARTNER_EXCHANGE_SECRET ? { url: config.PARTNER_EXCHANGE_URL.replace(/\/+$/, ''), secret: config.PARTNER_EXCHANGE_SECRET } : null;
  const client = partner ? createPartnerClient({ ...partner, clock, egress: egressPolicyFor(config) }) : null;

  const view = (row: Row): PartnerTransfer => ({
    id: row.id,
    entry_id: row.entryId,
    currency: row.currency as WalletCurrency,
    recipient: row.recipient,
    amount: String(row.amountMinor),
    status: row.status as PartnerTransferStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  /** Returns a pending transfer's amount and allowance (the partner refused it); false when it had its outcome already. */
  async function reject(id: string, reason: string | null): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [row] = await rows<{ entry_id: string; user_id: string; currency: WalletCurrency; amount_minor: string; recipient: string; allowance_day: string }>(
        tx,
        sql`select entry_id, user_id, currency, amount_minor::text as amount_minor, recipient, allowance_day
          from wallet_partner_transfers where id = ${id} and status = 'pending' for update`,
      );
      if (!row) return false;
      const refundId = await reverseEntry(tx, row, {
        outcome: 'rejected',
        refundKind: 'partner_refund',
        currency: row.currency,
        from: PARTNER_CLEARING_ACCOUNT,
        note: `Returned: the partner exchange rejected the transfer to ${row.recipient}${reason ? ` (${reason})` : ''}`,
        day: row.allowance_day,
      });
      const [rejected] = await rows<{ id: string }>(
        tx,
        sql`update wallet_partner_transfers set status = 'rejected', refund_entry_id = ${refundId}, reason = ${reason}, updated_at = ${clock.now().toISOString()}
          where id = ${id} and status = 'pending' returning id`,
      );
      if (!rejected) throw new Error('partner transfer changed while locked');
      return true;
    });
  }

  /** Marks a pending transfer completed (once). */
  async function complete(id: string, partnerReference: string | null): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [done] = await rows<{ entry_id: string }>(
        tx,
        sql`update wallet_partner_transfers set status = 'completed', partner_reference = coalesce(${partnerReference}, partner_reference), updated_at = ${clock.now().toISOString()}
          where id = ${id} and status = 'pending' returning entry_id`,
      );
      if (!done) return false;
      await tx.execute(sql`update wallet_entries set status = 'completed' where id = ${done.entry_id}`);
      return true;
    });
  }

  /** Records what the partner said of a transfer; money moves back only on `refused`. */
  async function settle(row: Row, answer: PartnerAnswer): Promise<void> {
    const now = clock.now().toISOString();
    switch (answer.kind) {
      case 'accepted':
        await db.execute(sql`update wallet_partner_transfers set sent_at = coalesce(sent_at, ${now}), last_error = null, updated_at = ${now},
          partner_reference = coalesce(partner_reference, ${answer.reference}) where id = ${row.id}`);
        log.info({ transfer: row.id }, 'partner transfer accepted: pending until the partner confirms');
        return;
      case 'delivered':
        await db.execute(sql`update wallet_partner_transfers set sent_at = coalesce(sent_at, ${now}), last_error = null, updated_at = ${now} where id = ${row.id}`);
        if (await complete(row.id, answer.reference)) log.info({ transfer: row.id }, 'partner transfer delivered, as the partner answered when asked by its id');
        return;
      case 'refused':
        await db.execute(sql`update wallet_partner_transfers set last_error = 'refused by the partner', updated_at = ${now} where id = ${row.id}`);
        if (await reject(row.id, answer.reason)) log.warn({ transfer: row.id }, 'partner transfer refused by the partner: rejected, amount returned');
        return;
      case 'unknown':
        // The partner never received the id: sent again (with the same id) by the job.
        await db.execute(sql`update wallet_partner_transfers set sent_at = null, last_error = 'unknown to the partner', updated_at = ${now} where id = ${row.id} and status = 'pending'`);
        log.warn({ transfer: row.id }, 'partner transfer unknown to the partner: sent again on the next run');
        return;
      case 'unclear':
        await db.execute(sql`update wallet_partner_transfers set last_error = ${answer.detail}, updated_at = ${now} where id = ${row.id}`);
        log.warn({ transfer: row.id, error: answer.detail }, 'partner transfer outcome unclear: asked again by its id on the next run');
    }
  }

  /**
   * Sends one transfer to the partner (again, after a lost answer: the partner applies an id
   * once). An answer that says nothing of the transfer (a 409 for a duplicate id, a 4xx to a
   * resend) is reconciled by asking the partner for the transfer by its id.
   */
  async function deliver(row: Row): Promise<void> {
    // Claimed by its attempt count, so one sender at a time (parallel retries of the request, jobs
    // on several nodes) sends it; counted before the request, so a send cut short (a timeout, a
    // crash) makes the next one a resend, never a first send.
    const [claimed] = await rows<{ attempts: number }>(
      db,
      sql`update wallet_partner_transfers set attempts = attempts + 1, updated_at = ${clock.now().toISOString()}
        where id = ${row.id} and status = 'pending' and sent_at is null and attempts = ${row.attempts} returning attempts`,
    );
    if (!claimed) return;
    const request = { transfer_id: row.id, recipient: row.recipient, currency: row.currency, amount_minor: String(row.amountMinor), note: row.note, created_at: row.createdAt.toISOString() };
    let answer = await client!.send(request, Number(claimed.attempts) === 1);
    if (answer.kind === 'unclear' && answer.askStatus) answer = await client!.status(row.id);
    await settle(row, answer);
  }

  /** Asks the partner about a transfer it accepted whose callback has not come. */
  async function check(row: Row): Promise<void> {
    const [claimed] = await rows<{ id: string }>(
      db,
      sql`update wallet_partner_transfers set updated_at = ${clock.now().toISOString()} where id = ${row.id} and status = 'pending' and sent_at is not null returning id`,
    );
    if (claimed) await settle(row, await client!.status(row.id));
  }

  return {
    enabled: partner !== null,

    async transfer(userId: string, currency: WalletCurrency, request: TransferRequest): Promise<PartnerTransfer> {
      if (!partner) throw new AppError('wallet.partner_unavailable');
      const recipient = request.to.trim();
      const entryId = await wallet.send(userId, currency, request, async () => {
        if (!RECIPIENT_PATTERNS.some((pattern) => pattern.test(recipient))) {
          throw new AppError('wallet.partner_recipient_invalid', {}, { fields: { to: 'An email, phone number or username' } });
        }
        return {
          identity: { kind: 'partner', to: recipient },
          entry: { kind: 'partner_transfer', status: 'pending', destination: recipient, note: 'Partner exchange transfer' },
          lines: (amount) => [
            { account: { userId }, amount: -amount },
            { account: { system: PARTNER_CLEARING_ACCOUNT }, amount },
          ],
          record: async (tx, transfer) => {
            const now = clock.now();
            await tx.insert(walletPartnerTransfers).values({
              entryId: transfer.entryId,
              userId,
              currency,
              recipient,
              amountMinor: transfer.amount,
              note: transfer.note,
              allowanceDay: transfer.day,
              createdAt: now,
              updatedAt: now,
            });
          },
        };
      });
      let [row] = await db.select().from(walletPartnerTransfers).where(eq(walletPartnerTransfers.entryId, entryId));
      // The key was used for another kind of transfer (to an account here).
      if (!row) throw new AppError('wallet.idempotency_conflict');
      // Sent by the first request; a retry sends it again only once the job would (a send may still be in flight).
      if (row.status === 'pending' && !row.sentAt && (row.attempts === 0 || row.updatedAt.getTime() < clock.now().getTime() - RESEND_AFTER_MS)) {
        await deliver(row);
        [row] = await db.select().from(walletPartnerTransfers).where(eq(walletPartnerTransfers.id, row.id));
      }
      return view(row!);
    },

    async list(userId: string, currency: WalletCurrency): Promise<{ enabled: boolean; items: PartnerTransfer[] }> {
      const items = await db
        .select()
        .from(walletPartnerTransfers)
        .where(and(eq(walletPartnerTransfers.userId, userId), eq(walletPartnerTransfers.currency, currency)))
        .orderBy(desc(walletPartnerTransfers.createdAt))
        .limit(20);
      return { enabled: partner !== null, items: items.map(view) };
    },

    /** The partner's callback, as the exact bytes it signed. */
    async notify(raw: Buffer, signature: string | undefined): Promise<PartnerNotificationResult> {
      if (!partner) throw new AppError('wallet.partner_unavailable');
      const notification = readSignedNotification({ name: 'partner', secret: partner.secret, log }, raw, signature, clock.now(), partnerNotificationSchema);
      const applied =
        notification.status === 'completed' ? await complete(notification.transfer_id, notification.partner_reference ?? null) : await reject(notification.transfer_id, notification.reason?.trim() || null);
      const [row] = await db.select({ status: walletPartnerTransfers.status }).from(walletPartnerTransfers).where(eq(walletPartnerTransfers.id, notification.transfer_id));
      if (!row) throw new AppError('not_found');
      if (applied) log.info({ transfer: notification.transfer_id, status: row.status }, 'partner transfer settled');
      else if (row.status !== notification.status) log.warn({ transfer: notification.transfer_id, status: row.status, reported: notification.status }, 'partner notification contradicts a settled transfer: nothing changed');
      return { applied, status: row.status as PartnerTransferStatus };
    },

    /**
     * One run of the job: sends again (same id) the transfers the partner has not acknowledged,
     * and asks the partner about those it accepted whose callback has not come in STATUS_AFTER_MS.
     */
    async sendPending(): Promise<number> {
      if (!partner) return 0;
      const now = clock.now().getTime();
      const pending = eq(walletPartnerTransfers.status, 'pending');
      const waiting = await db
        .select()
        .from(walletPartnerTransfers)
        .where(and(pending, sql`${walletPartnerTransfers.sentAt} is null`, lt(walletPartnerTransfers.updatedAt, new Date(now - RESEND_AFTER_MS))))
        .orderBy(walletPartnerTransfers.createdAt)
        .limit(RESEND_BATCH);
      for (const row of waiting) await deliver(row);
      const unsettled = await db
        .select()
        .from(walletPartnerTransfers)
        .where(and(pending, sql`${walletPartnerTransfers.sentAt} is not null`, lt(walletPartnerTransfers.updatedAt, new Date(now - STATUS_AFTER_MS))))
        .orderBy(walletPartnerTransfers.updatedAt)
        .limit(RESEND_BATCH);
      for (const row of unsettled) await check(row);
      return waiting.length + unsettled.length;
    },
  };
}

export type PartnerTransferService = ReturnType<typeof createPartnerTransferService>;

/** Every PARTNER_EXCHANGE_RETRY_SECONDS (0: not on this node) sends again the transfers the partner has not acknowledged. */
export function installPartnerJob(app: FastifyInstance, partner: PartnerTransferService, intervalSeconds: number): void {
  if (!partner.enabled) return;
  installPeriodicJob(app, { name: 'wallet-partner', intervalMs: intervalSeconds * 1000, run: () => partner.sendPending() });
}

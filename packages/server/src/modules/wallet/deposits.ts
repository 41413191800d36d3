import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { z } from 'zod';
import { bankNotificationSchema, formatMoney, type DepositOrder, type DepositOrderCreated, type DepositOrderStatus } from '@portal/contracts';
import type { Config } from '../../config';
import { inAccountsTurn } from '../../db/account-turns';
import type { Database } from '../../db/client';
import { walletDepositOrders, walletEntries } from './tables';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { post, rows } from './ledger';
import { vietQrPayload } from './vietqr';
import { isUniqueViolation } from '../../db/errors';

/** The smallest and largest deposit in dong (NAPAS 24/7 moves less than 500 million per transfer). */
export const DEPOSIT_MIN_VND = 10_000;
export const DEPOSIT_MAX_VND = 499_999_999;
/** Orders one person may have waiting for their transfer at once. */
export const DEPOSIT_MAX_PENDING = 5;
/** How far a notification's signed time may be from ours. */
export const BANK_SIGNATURE_TOLERANCE_SECONDS = 300;
/** The system account bank deposits come from. */
const BANK_ACCOUNT = 'bank_deposits';
/** Crockford's base32: no I, L, O or U, so a reference read aloud or retyped stays the same. */
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const REFERENCE_PATTERN = /^PD[0-9A-HJKMNP-TV-Z]{8}$/;

type DepositConfig = Pick<Config, 'VIETQR_BANK_BIN' | 'VIETQR_ACCOUNT_NUMBER' | 'VIETQR_ACCOUNT_NAME' | 'BANK_WEBHOOK_SECRET' | 'WALLET_DEPOSIT_TTL_MINUTES'>;

/** What the deposits write to the log: never the secret, the signature or the transfer's content. */
export interface DepositLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export type BankNotificationResult = { matched: boolean; duplicate?: boolean };

/**
 * `PD` and 8 characters of Crockford's base32 (about 40 random bits): short enough to type into a
 * transfer's content. The 8 never hold a second `PD`, which would make the content read as two
 * references, the second running into the bank's words after it and perhaps naming another
 * person's order.
 */
export function newReference(): string {
  for (;;) {
    let body = '';
    for (let index = 0; index < 8; index += 1) body += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
    if (!body.includes('PD')) return `PD${body}`;
  }
}

/**
 * The references a transfer's content may hold: banks upper-case it, add their own words around
 * it and sometimes drop or add spaces and punctuation, so every `PD` + 8 characters of what is
 * left once only letters and digits remain is a candidate (at most 20).
 */
export function referencesIn(description: string): string[] {
  const text = description.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const found = new Set<string>();
  for (let index = text.indexOf('PD'); index !== -1 && found.size < 20; index = text.indexOf('PD', index + 1)) {
    const candidate = text.slice(index, index + 10);
    if (REFERENCE_PATTERN.test(candidate)) found.add(candidate);
  }
  return [...found];
}

/**
 * Checks `x-bank-signature: t=<unix seconds>,v1=<hex>`: an HMAC-SHA256 under the shared secret
 * of `<t>.<raw body>`, `t` within 5 minutes of now, compared in constant time. Several `v1`
 * may be sent while the bank rotates its key.
 */
export function bankSignatureValid(secret: string, raw: Buffer, header: string | undefined, now: Date): boolean {
  if (!header || header.length > 1024) return false;
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = value;
    if (name === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (!timestamp || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > BANK_SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest();
  let valid = false;
  for (const signature of signatures) valid = timingSafeEqual(signature, expected) || valid;
  return valid;
}

/** The header a bank (or a test) sends for a body. */
export function signBankNotification(secret: string, raw: string | Buffer, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex')}`;
}

/**
 * A signed JSON notification (the bank's; the partner's callback), read from the exact bytes its
 * sender signed: refused unless `bankSignatureValid`, then parsed with its schema. A refusal is
 * logged without the header or the body: a forger learns nothing from the log either.
 */
export function readSignedNotification<T>(
  sender: { name: 'bank' | 'partner'; secret: string; log: Pick<DepositLogger, 'warn'> },
  raw: Buffer,
  signature: string | undefined,
  now: Date,
  schema: z.ZodType<T>,
): T {
  if (!bankSignatureValid(sender.secret, raw, signature, now)) {
    sender.log.warn({ signed: Boolean(signature), bytes: raw.length }, `${sender.name} notification refused: missing, forged or stale signature`);
    throw new AppError(`wallet.${sender.name}_signature_invalid`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('validation_error');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]));
    throw new AppError('validation_error', {}, { fields });
  }
  return parsed.data;
}

/** Thrown inside the crediting transaction when no order matches: rolls back its entry. */
class NoMatch extends Error {}


/**
 * VND deposits by bank transfer: an order carries a reference the person writes in
 * the transfer's content, shown with a VietQR code that fills in the account, the amount and
 * the reference. The bank's signed notification of an incoming transfer credits the pending
 * order whose reference it holds and whose amount it equals, in one transaction: the order
 * turns paid (`UPDATE ... WHERE status = 'pending' RETURNING`, so parallel or replayed
 * notifications find it paid) and an entry moves the money from the system's bank account to
 * the person. One bank transaction pays at most one order (a unique index).
 */
export function createDepositService(deps: { db: Database; clock: Clock; config: DepositConfig; log: DepositLogger }) {
  const { db, clock, config, log } = deps;
  const settings =
    config.VIETQR_BANK_BIN && config.VIETQR_ACCOUNT_NUMBER && config.VIETQR_ACCOUNT_NAME && config.BANK_WEBHOOK_SECRET
      ? { bin: config.VIETQR_BANK_BIN, accountNumber: config.VIETQR_ACCOUNT_NUMBER, accountName: config.VIETQR_ACCOUNT_NAME, secret: config.BANK_WEBHOOK_SECRET }
      : null;

  const view = (order: typeof walletDepositOrders.$inferSelect): DepositOrder => ({
    id: order.id,
    currency: 'VND',
    reference: order.reference,
    amount: String(order.amountMinor),
    // An order past its time that no transfer paid is shown expired (the row says so once a late transfer arrives).
    status: (order.status === 'pending' && order.expiresAt.getTime() <= clock.now().getTime() ? 'expired' : order.status) as DepositOrderStatus,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
  });

  /** An order with the VietQR code (payload and PNG) and the account to transfer to. */
  async function withInstructions(order: typeof walletDepositOrders.$inferSelect): Promise<DepositOrderCreated> {
    const bank = settings!;
    const payload = vietQrPayload({ bin: bank.bin, accountNumber: bank.accountNumber, amount: order.amountMinor, purpose: order.reference });
    const image = await QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 2, width: 280 });
    return { ...view(order), qr_payload: payload, qr_image: image, bank: { bin: bank.bin, account_number: bank.accountNumber, account_name: bank.accountName } };
  }

  return {
    enabled: settings !== null,

    async create(userId: string, amountText: string): Promise<DepositOrderCreated> {
      if (!settings) throw new AppError('wallet.deposits_unavailable');
      const amount = /^\d{1,12}$/.test(amountText.trim()) ? Number(amountText.trim()) : NaN;
      if (!(amount >= DEPOSIT_MIN_VND && amount <= DEPOSIT_MAX_VND)) {
        // The parameters ride in details too: the web app words the code in the visitor's language with them.
        const range = { min: formatMoney(DEPOSIT_MIN_VND, 'VND', 'en'), max: formatMoney(DEPOSIT_MAX_VND, 'VND', 'en') };
        throw new AppError('wallet.deposit_amount_invalid', range, range);
      }
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + config.WALLET_DEPOSIT_TTL_MINUTES * 60_000);
      // The count and the insert in the account's turn: parallel requests cannot pass the limit together.
      const order = await inAccountsTurn(db, userId, async (tx) => {
        const [waiting] = await rows<{ n: number }>(
          tx,
          sql`select count(*)::int as n from wallet_deposit_orders where user_id = ${userId} and status = 'pending' and expires_at > ${now.toISOString()}`,
        );
        if ((waiting?.n ?? 0) >= DEPOSIT_MAX_PENDING) throw new AppError('wallet.deposit_orders_limit', { count: DEPOSIT_MAX_PENDING }, { count: DEPOSIT_MAX_PENDING });
        // 40 random bits: a taken reference is rare; draw again.
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const [made] = await tx
            .insert(walletDepositOrders)
            .values({ userId, currency: 'VND', amountMinor: amount, reference: newReference(), status: 'pending', createdAt: now, expiresAt })
            .onConflictDoNothing()
            .returning();
          if (made) return made;
        }
        return undefined;
      });
      if (!order) throw new Error('no free deposit reference after 5 draws');
      return withInstructions(order);
    },

    /** One of the person's orders with what to transfer, to pay it from another device or later. */
    async get(userId: string, id: string): Promise<DepositOrderCreated> {
      if (!settings) throw new AppError('wallet.deposits_unavailable');
      const [order] = await db.select().from(walletDepositOrders).where(and(eq(walletDepositOrders.id, id), eq(walletDepositOrders.userId, userId)));
      if (!order) throw new AppError('not_found');
      return withInstructions(order);
    },

    async list(userId: string): Promise<{ enabled: boolean; items: DepositOrder[] }> {
      const orders = await db.select().from(walletDepositOrders).where(eq(walletDepositOrders.userId, userId)).orderBy(desc(walletDepositOrders.createdAt)).limit(20);
      return { enabled: settings !== null, items: orders.map(view) };
    },

    /** The bank's notification, as the exact bytes it signed. */
    async notify(raw: Buffer, signature: string | undefined): Promise<BankNotificationResult> {
      if (!settings) throw new AppError('wallet.deposits_unavailable');
      const notification = readSignedNotification({ name: 'bank', secret: settings.secret, log }, raw, signature, clock.now(), bankNotificationSchema);
      const about = { transaction_id: notification.transaction_id, amount: notification.amount };
      if (notification.account_number.trim() !== settings.accountNumber) {
        log.warn(about, 'bank notification for another account: nothing credited');
        return { matched: false };
      }
      const [seen] = await db.select({ id: walletDepositOrders.id }).from(walletDepositOrders).where(eq(walletDepositOrders.bankTransactionId, notification.transaction_id));
      if (seen) return { matched: true, duplicate: true };
      const references = referencesIn(notification.description);
      if (references.length === 0) {
        log.warn(about, 'bank notification without a deposit reference: nothing credited');
        return { matched: false };
      }

      const occurredAt = new Date(notification.occurred_at);
      const paidAt = clock.now();
      const entryId = randomUUID();
      try {
        const order = await db.transaction(async (tx) => {
          // The entry first (the paid order points at it); a notification matching nothing rolls it back.
          await tx.insert(walletEntries).values({ id: entryId, kind: 'deposit', currency: 'VND', status: 'completed', idempotencyKey: `bank:${notification.transaction_id}`, note: 'Bank transfer' });
          const list = sql.join(references.map((reference) => sql`${reference}`), sql`, `);
          const [paid] = await rows<{ id: string; user_id: string; reference: string }>(
            tx,
            sql`update wallet_deposit_orders set status = 'paid', paid_at = ${paidAt.toISOString()}, bank_transaction_id = ${notification.transaction_id}, entry_id = ${entryId}
              where status = 'pending' and id = (
                select id from wallet_deposit_orders where reference in (${list}) and status = 'pending' and amount_minor = ${notification.amount}
                  and expires_at >= ${occurredAt.toISOString()} order by created_at limit 1)
              returning id, user_id, reference`,
          );
          if (!paid) throw new NoMatch();
          await tx.update(walletEntries).set({ note: `Bank transfer ${paid.reference}` }).where(eq(walletEntries.id, entryId));
          await post(tx, entryId, 'VND', [
            { account: { system: BANK_ACCOUNT }, amount: -notification.amount },
            { account: { userId: paid.user_id }, amount: notification.amount },
          ]);
          return paid;
        });
        log.info({ ...about, order: order.id }, 'bank deposit credited');
        return { matched: true };
      } catch (error) {
        if (isUniqueViolation(error)) return { matched: true, duplicate: true };
        if (!(error instanceof NoMatch)) throw error;
      }

      // Nothing credited: say why, for the operator who may credit it by hand (`npm run wallet -- adjust`).
      const [again] = await db.select({ id: walletDepositOrders.id }).from(walletDepositOrders).where(eq(walletDepositOrders.bankTransactionId, notification.transaction_id));
      if (again) return { matched: true, duplicate: true };
      const orders = await rows<{ id: string; status: string; amount_minor: string; expires_at: string }>(
        db,
        sql`select id, status, amount_minor::text as amount_minor, expires_at::text as expires_at from wallet_deposit_orders where reference in (${sql.join(references.map((reference) => sql`${reference}`), sql`, `)})`,
      );
      const reason = !orders.length
        ? 'no order has its reference'
        : orders.some((order) => order.status === 'paid')
          ? 'its order is already paid'
          : orders.some((order) => Number(order.amount_minor) !== notification.amount)
            ? 'the amount differs from the order'
            : 'its order had expired';
      if (reason === 'its order had expired') {
        await db
          .update(walletDepositOrders)
          .set({ status: 'expired' })
          .where(and(eq(walletDepositOrders.status, 'pending'), sql`${walletDepositOrders.reference} in (${sql.join(references.map((reference) => sql`${reference}`), sql`, `)})`, gt(sql`${occurredAt.toISOString()}::timestamptz`, walletDepositOrders.expiresAt)));
      }
      log.warn({ ...about, orders: orders.map((order) => order.id), reason }, 'bank notification matched no pending order: nothing credited');
      return { matched: false };
    },
  };
}

export type DepositService = ReturnType<typeof createDepositService>;

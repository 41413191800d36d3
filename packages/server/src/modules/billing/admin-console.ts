import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { verifyLicense } from './licenses';

/** Rows of a raw statement, whichever driver ran it (PGlite and node-postgres both answer `rows`). */
async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIMIT = 50;

interface OrderRow {
  id: string;
  number: string;
  user_id: string | null;
  email: string | null;
  plan: string;
  currency: 'USD' | 'VND';
  total: string | number;
  status: string;
  kind: string;
  created_at: Date | string;
  paid_at: Date | string | null;
  refunded_at: Date | string | null;
}

interface LicenseRow {
  code_hash: string;
  plan: string;
  user_id: string | null;
  email: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

const order = (row: OrderRow) => ({
  id: row.id,
  number: row.number,
  user_id: row.user_id,
  email: row.email,
  plan: row.plan,
  currency: row.currency,
  total: Number(row.total),
  status: row.status,
  kind: row.kind,
  created_at: iso(row.created_at),
  paid_at: isoOrNull(row.paid_at),
  refunded_at: isoOrNull(row.refunded_at),
});

const license = (row: LicenseRow) => ({
  code_hash: row.code_hash.slice(0, 12),
  plan: row.plan,
  state: row.revoked_at ? ('revoked' as const) : ('redeemed' as const),
  user_id: row.user_id,
  email: row.email,
  at: iso(row.revoked_at ?? row.created_at),
});

/** The hash a code is recorded by when redeemed (billing's redeemLicense uses the same). */
export const licenseCodeHash = (code: string) => sha256(`appsumo:${code.trim().toLowerCase()}`);

/**
 * Billing's reads and licence revocation for the operators' console; promo codes and issuing
 * licences are the command line's (billingAdmin), refunds billing's own (refundOrderOnce).
 */
export function billingConsole(deps: { db: Database; clock: Clock; licenseSecret: string }) {
  const { db, clock } = deps;
  const orderColumns = sql`o.id, o.number, o.user_id, u.email, o.plan, o.currency, o.total, o.status, o.kind, o.created_at, o.paid_at, o.refunded_at`;

  return {
    /** By order number, order id or the buyer's email; the newest 50 without a query. */
    async searchOrders(query: string | undefined) {
      const value = (query ?? '').trim();
      const where = !value
        ? sql`true`
        : UUID.test(value)
          ? sql`o.id = ${value.toLowerCase()}`
          : value.includes('@')
            ? sql`u.email = ${value.toLowerCase()}`
            : sql`o.number = ${value.toUpperCase()} or o.number = ${value}`;
      const found = await rows<OrderRow>(db, sql`select ${orderColumns} from orders o left join users u on u.id = o.user_id where ${where} order by o.created_at desc limit ${LIMIT}`);
      return { orders: found.map(order) };
    },

    async order(id: string) {
      const [found] = await rows<OrderRow>(db, sql`select ${orderColumns} from orders o left join users u on u.id = o.user_id where o.id = ${id}`);
      return found && order(found);
    },

    async licenses() {
      const found = await rows<LicenseRow>(
        db,
        sql`select l.code_hash, l.plan, l.user_id, u.email, l.created_at, l.revoked_at from license_redemptions l left join users u on u.id = l.user_id
          order by coalesce(l.revoked_at, l.created_at) desc limit 200`,
      );
      return { licenses: found.map(license) };
    },

    /** Records an unredeemed code as taken (one insert decides against a redemption at the same moment); again: answers it revoked. */
    async revokeLicense(code: string) {
      const verified = verifyLicense(code, deps.licenseSecret, clock.now());
      if (!verified) throw new AppError('billing.license_invalid');
      const codeHash = licenseCodeHash(code);
      await rows(db, sql`insert into license_redemptions (code_hash, plan, revoked_at) values (${codeHash}, ${verified.plan}, ${clock.now().toISOString()}) on conflict do nothing`);
      const [found] = await rows<LicenseRow>(
        db,
        sql`select l.code_hash, l.plan, l.user_id, u.email, l.created_at, l.revoked_at from license_redemptions l left join users u on u.id = l.user_id where l.code_hash = ${codeHash}`,
      );
      if (!found?.revoked_at) throw new AppError('admin.license_redeemed');
      return license(found);
    },
  };
}

export type BillingConsole = ReturnType<typeof billingConsole>;

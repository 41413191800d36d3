import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import { billingCurrencies, findPlan, formatMinor, isBillingCurrency, plans, toMinor, type Plan } from '@portal/contracts';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { Database } from '../../db/client';
import { promoCodes } from './tables';
import { issueLicense } from './licenses';

const DAY_MS = 24 * 60 * 60 * 1000;
/** AppSumo codes are refused after this long unless `--expires` says otherwise. */
export const LICENSE_DEFAULT_DAYS = 365;
export const LICENSE_MAX_COUNT = 1000;

/** An operator's mistake: the CLI prints the message and exits 1. */
export class BillingAdminError extends Error {}

const catalogue: readonly Plan[] = plans;
const purchasable = catalogue.filter((plan) => !plan.free && !plan.lifetime).map((plan) => plan.id);
const lifetime = catalogue.filter((plan) => plan.lifetime).map((plan) => plan.id);

/** A date written as YYYY-MM-DD (end of that day, UTC) or a full ISO time; it must be in the future. */
function futureDate(field: string, now: Date) {
  return z
    .string()
    .trim()
    .transform((value, ctx) => {
      const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
      if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a date (YYYY-MM-DD) or an ISO time` });
        return z.NEVER;
      }
      if (date.getTime() <= now.getTime()) {
        ctx.addIssue({ code: 'custom', message: `${field} must be in the future` });
        return z.NEVER;
      }
      return date;
    });
}

const positiveInteger = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

/** What `npm run billing -- promo add` takes (as typed on the command line). */
export interface PromoAddInput {
  code?: string;
  percent?: string;
  amount?: string;
  currency?: string;
  plan?: string[];
  expires?: string;
  limit?: string;
}

function promoAddSchema(now: Date) {
  return z
    .object({
      code: z
        .string({ error: 'code is required (--code)' })
        .trim()
        .regex(/^[A-Za-z0-9_-]{3,32}$/, 'code must be 3 to 32 letters, digits, - or _')
        .transform((code) => code.toUpperCase()),
      percent: z
        .string()
        .trim()
        .regex(/^\d+(\.\d{1,2})?$/, 'percent must be a number such as 10 or 12.5')
        .transform(Number)
        .pipe(z.number().gt(0, 'percent must be above 0').max(100, 'percent must be at most 100'))
        .optional(),
      amount: z.string().trim().optional(),
      currency: z.enum(billingCurrencies, { error: `currency must be one of ${billingCurrencies.join(', ')}` }).optional(),
      plan: z.array(z.enum(purchasable as [string, ...string[]], { error: `plan must be one of ${purchasable.join(', ')}` })).default([]),
      expires: futureDate('expires', now).optional(),
      limit: positiveInteger(1_000_000).optional(),
    })
    .transform((input, ctx) => {
      if ((input.percent === undefined) === (input.amount === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'give either --percent or --amount (with --currency)' });
        return z.NEVER;
      }
      let amount: { minor: number; currency: (typeof billingCurrencies)[number] } | null = null;
      if (input.amount !== undefined) {
        if (!input.currency) {
          ctx.addIssue({ code: 'custom', message: 'a fixed amount needs --currency' });
          return z.NEVER;
        }
        const minor = toMinor(input.amount, input.currency);
        if (minor === null || minor <= 0) {
          ctx.addIssue({ code: 'custom', message: `amount must be a positive amount of ${input.currency} with at most its decimals` });
          return z.NEVER;
        }
        amount = { minor, currency: input.currency };
      }
      return { ...input, amount };
    });
}

export interface PromoListing {
  code: string;
  discount: string;
  plans: string[];
  expiresAt: Date | null;
  redemptions: number;
  maxRedemptions: number | null;
  state: 'active' | 'expired' | 'used up';
}

/**
 * The operator's billing tools (`npm run billing`): promo codes (add, list, disable) and AppSumo
 * license codes. Input comes as typed on the command line and is checked here; a mistake is a
 * BillingAdminError or a zod error naming the field.
 */
export function billingAdmin(deps: { db: Database; clock: Clock; licenseSecret: string }) {
  const { db, clock } = deps;
  return {
    async addPromo(raw: PromoAddInput): Promise<PromoListing> {
      const input = promoAddSchema(clock.now()).parse(raw);
      const [row] = await db
        .insert(promoCodes)
        .values({
          code: input.code,
          kind: input.amount ? 'fixed' : 'percent',
          basisPoints: input.amount ? null : Math.round(input.percent! * 100),
          amount: input.amount?.minor ?? null,
          currency: input.amount?.currency ?? null,
          plans: [...new Set(input.plan)],
          expiresAt: input.expires ?? null,
          maxRedemptions: input.limit ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new BillingAdminError(`promo code ${input.code} already exists`);
      return listing(row, clock.now());
    },

    async listPromos(): Promise<PromoListing[]> {
      const now = clock.now();
      return (await db.select().from(promoCodes).orderBy(asc(promoCodes.createdAt), asc(promoCodes.code))).map((row) => listing(row, now));
    },

    /** Ends a code now (its expiry becomes now); orders already paid with it keep their discount. */
    async disablePromo(rawCode: string | undefined): Promise<void> {
      const code = (rawCode ?? '').trim().toUpperCase();
      if (!code) throw new BillingAdminError('which code? npm run billing -- promo disable <code>');
      const now = clock.now();
      const [row] = await db.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.code, code));
      if (!row) throw new BillingAdminError(`no promo code ${code}`);
      await db
        .update(promoCodes)
        .set({ expiresAt: now })
        .where(and(eq(promoCodes.code, code), or(isNull(promoCodes.expiresAt), gt(promoCodes.expiresAt, now))));
    },

    /** AppSumo codes of a lifetime plan, each redeemable once at /confirmation/app/<code>. */
    issueLicenses(input: { plan?: string; count?: string; expires?: string }): { plan: string; expiresAt: Date; codes: string[] } {
      const now = clock.now();
      const plan = input.plan ? findPlan(input.plan) : undefined;
      if (!plan?.lifetime) throw new BillingAdminError(`plan must be one of ${lifetime.join(', ')}`);
      const count = input.count === undefined ? 1 : positiveInteger(LICENSE_MAX_COUNT).safeParse(input.count);
      if (typeof count !== 'number' && !count.success) throw new BillingAdminError(`count ${count.error.issues[0]!.message}`);
      const expiresAt = input.expires === undefined ? new Date(now.getTime() + LICENSE_DEFAULT_DAYS * DAY_MS) : futureDate('expires', now).parse(input.expires);
      const n = typeof count === 'number' ? count : count.data;
      const codes = Array.from({ length: n }, () => issueLicense({ plan: plan.id, expiresAt: Math.floor(expiresAt.getTime() / 1000) }, deps.licenseSecret));
      return { plan: plan.id, expiresAt, codes };
    },
  };
}

function listing(row: typeof promoCodes.$inferSelect, now: Date): PromoListing {
  const discount = row.kind === 'percent' ? `${(row.basisPoints ?? 0) / 100}%` : row.amount !== null && isBillingCurrency(row.currency) ? formatMinor(row.amount, row.currency, 'en') : '?';
  const state = row.expiresAt && row.expiresAt <= now ? 'expired' : row.maxRedemptions !== null && row.redemptions >= row.maxRedemptions ? 'used up' : 'active';
  return { code: row.code, discount, plans: row.plans, expiresAt: row.expiresAt, redemptions: row.redemptions, maxRedemptions: row.maxRedemptions, state };
}

/** The key of AppSumo codes: APPSUMO_LICENSE_SECRET, or one derived from the data key (the same on every node and in the CLI). */
export function licenseSecretOf(config: { APPSUMO_LICENSE_SECRET?: string }, secrets: { keyedHash(label: string): string }): string {
  return config.APPSUMO_LICENSE_SECRET ?? secrets.keyedHash('appsumo license key');
}

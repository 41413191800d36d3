import { z } from 'zod';
import { billingCurrencies } from './money';
import { adminReasonSchema } from '../operators/roles';

/** Billing as operators see it: promo codes, AppSumo licence codes and orders (with their refund). */

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const date = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/);

export const adminPromoSchema = z.object({
  code: z.string(),
  discount: z.string(),
  plans: z.array(z.string()),
  expires_at: z.string().nullable(),
  redemptions: z.number().int(),
  max_redemptions: z.number().int().nullable(),
  state: z.enum(['active', 'expired', 'used up']),
});
export const adminPromoListSchema = z.object({ promo_codes: z.array(adminPromoSchema) });

/** As `npm run billing -- promo add` takes it: either `percent`, or `amount` with `currency`. */
export const adminPromoCreateSchema = z.object({
  code: z.string().trim().regex(/^[A-Za-z0-9_-]{3,32}$/),
  percent: z.string().trim().regex(/^\d{1,3}(\.\d{1,2})?$/).optional(),
  amount: z.string().trim().regex(/^\d{1,12}(\.\d{1,2})?$/).optional(),
  currency: z.enum(billingCurrencies).optional(),
  plans: z.array(z.string().max(64)).max(20).optional(),
  /** YYYY-MM-DD (end of that day, UTC) or an ISO time, in the future. */
  expires: date.optional(),
  limit: z.number().int().min(1).max(1_000_000).optional(),
  reason: adminReasonSchema,
});

export const adminPromoParamsSchema = z.object({ code: z.string().trim().regex(/^[A-Za-z0-9_-]{3,32}$/) });
export const adminReasonRequestSchema = z.object({ reason: adminReasonSchema });

export const adminLicenseSchema = z.object({
  /** The first characters of the code's hash: codes are never stored. */
  code_hash: z.string(),
  plan: z.string(),
  state: z.enum(['redeemed', 'revoked']),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  at: z.string(),
});
export const adminLicenseListSchema = z.object({ licenses: z.array(adminLicenseSchema) });

export const adminLicenseIssueSchema = z.object({
  plan: z.string().max(64),
  count: z.number().int().min(1).max(1000).default(1),
  expires: date.optional(),
  reason: adminReasonSchema,
});
/** The codes, shown once: they are not stored (a code is checked by its signature). */
export const adminLicenseIssuedSchema = z.object({ plan: z.string(), expires_at: z.string(), codes: z.array(z.string()) });

export const adminLicenseRevokeSchema = z.object({ code: z.string().trim().min(1).max(2000).regex(/^[0-9a-fA-F]+$/), reason: adminReasonSchema });

export const adminOrderSearchQuerySchema = z.object({
  /** An order number, an order id or the buyer's email; empty lists the newest. */
  q: z.string().trim().max(254).optional(),
});

export const adminOrderSchema = z.object({
  id: z.string(),
  number: z.string(),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  plan: z.string(),
  currency: z.enum(billingCurrencies),
  total: z.number().int(),
  status: z.string(),
  kind: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrderListSchema = z.object({ orders: z.array(adminOrderSchema) });
export const adminOrderParamsSchema = z.object({ id: uuid });

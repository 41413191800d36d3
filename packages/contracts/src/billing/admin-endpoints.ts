import {
  adminLicenseIssuedSchema,
  adminLicenseIssueSchema,
  adminLicenseListSchema,
  adminLicenseRevokeSchema,
  adminOrderListSchema,
  adminOrderParamsSchema,
  adminOrderSchema,
  adminOrderSearchQuerySchema,
  adminPromoCreateSchema,
  adminPromoListSchema,
  adminPromoParamsSchema,
  adminPromoSchema,
  adminReasonRequestSchema,
} from './admin-schemas';
import { endpoint } from '../endpoint';

/** Billing in the operators' console: finance and owners change it; support may look. */
const tag = 'admin';
const read = { operator: ['owner', 'finance', 'support'], adminScope: 'admin:billing' } as const;
const money = { operator: ['owner', 'finance'], adminScope: 'admin:billing' } as const;

export const listPromoCodes = endpoint({
  method: 'GET',
  path: '/admin/billing/promo-codes',
  tag,
  auth: read,
  summary: 'Every promo code with its discount, plans, expiry, redemptions and state',
  response: adminPromoListSchema,
});

export const createPromoCode = endpoint({
  method: 'POST',
  path: '/admin/billing/promo-codes',
  tag,
  auth: money,
  summary: 'Adds a promo code as `npm run billing -- promo add` does: a percent, or an amount with its currency; optionally plans, expiry and a redemption limit',
  body: adminPromoCreateSchema,
  status: 201,
  response: adminPromoSchema,
  errors: ['admin.promo_exists', 'admin.promo_invalid'],
});

export const disablePromoCode = endpoint({
  method: 'POST',
  path: '/admin/billing/promo-codes/{code}/disable',
  tag,
  auth: money,
  summary: 'Ends a promo code now (orders paid with it keep their discount)',
  params: adminPromoParamsSchema,
  body: adminReasonRequestSchema,
  response: adminPromoSchema,
  errors: ['admin.not_found'],
});

export const listLicenses = endpoint({
  method: 'GET',
  path: '/admin/billing/licenses',
  tag,
  auth: read,
  summary: 'AppSumo licence codes redeemed or revoked (codes are never stored: their hash, plan, who and when)',
  response: adminLicenseListSchema,
});

export const issueLicenses = endpoint({
  method: 'POST',
  path: '/admin/billing/licenses',
  tag,
  auth: money,
  summary: 'Issues AppSumo licence codes of a lifetime plan as `npm run billing -- license issue` does; the codes are answered once',
  body: adminLicenseIssueSchema,
  status: 201,
  response: adminLicenseIssuedSchema,
  errors: ['admin.promo_invalid'],
});

export const revokeLicense = endpoint({
  method: 'POST',
  path: '/admin/billing/licenses/revoke',
  tag,
  auth: money,
  summary: 'Revokes an AppSumo code not redeemed yet (the code goes in the body, never in a URL); a redeemed one is refused',
  body: adminLicenseRevokeSchema,
  response: adminLicenseListSchema.shape.licenses.element,
  errors: ['billing.license_invalid', 'admin.license_redeemed'],
});

export const searchOrders = endpoint({
  method: 'GET',
  path: '/admin/billing/orders',
  tag,
  auth: read,
  summary: "Orders by number, id or the buyer's email (the newest 50)",
  query: adminOrderSearchQuerySchema,
  response: adminOrderListSchema,
});

export const refundOrder = endpoint({
  method: 'POST',
  path: '/admin/billing/orders/{id}/refund',
  tag,
  auth: money,
  recentAuth: true,
  summary: "Refunds a paid order in full through billing's refund (the processor, then the ledger's reverse entry): once, even when two operators ask at once",
  params: adminOrderParamsSchema,
  body: adminReasonRequestSchema,
  response: adminOrderSchema,
  errors: ['admin.not_found', 'admin.order_not_refundable', 'admin.order_already_refunded', 'billing.processor_unavailable'],
});

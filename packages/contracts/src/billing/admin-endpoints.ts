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
import { endpointIn, operatorGroup } from '../endpoint';

/** Billing in the operators' console: finance and owners change it; support may look. */
const read = operatorGroup('admin:billing', ['owner', 'finance', 'support']);
const money = operatorGroup('admin:billing', ['owner', 'finance']);
const moneySensitive = { ...money, recentAuth: true } as const;

export const listPromoCodes = endpointIn(read, 'GET /admin/billing/promo-codes', 'Every promo code with its discount, plans, expiry, redemptions and state', {
  response: adminPromoListSchema,
});

export const createPromoCode = endpointIn(money, 'POST /admin/billing/promo-codes', 'Adds a promo code as `npm run billing -- promo add` does: a percent, or an amount with its currency; optionally plans, expiry and a redemption limit', {
  body: adminPromoCreateSchema, status: 201, response: adminPromoSchema, errors: ['admin.promo_exists', 'admin.promo_invalid'],
});

export const disablePromoCode = endpointIn(money, 'POST /admin/billing/promo-codes/{code}/disable', 'Ends a promo code now (orders paid with it keep their discount)', {
  params: adminPromoParamsSchema, body: adminReasonRequestSchema, response: adminPromoSchema, errors: ['admin.not_found'],
});

export const listLicenses = endpointIn(read, 'GET /admin/billing/licenses', 'AppSumo licence codes redeemed or revoked (codes are never stored: their hash, plan, who and when)', {
  response: adminLicenseListSchema,
});

export const issueLicenses = endpointIn(money, 'POST /admin/billing/licenses', 'Issues AppSumo licence codes of a lifetime plan as `npm run billing -- license issue` does; the codes are answered once', {
  body: adminLicenseIssueSchema, status: 201, response: adminLicenseIssuedSchema, errors: ['admin.promo_invalid'],
});

export const revokeLicense = endpointIn(money, 'POST /admin/billing/licenses/revoke', 'Revokes an AppSumo code not redeemed yet (the code goes in the body, never in a URL); a redeemed one is refused', {
  body: adminLicenseRevokeSchema, response: adminLicenseListSchema.shape.licenses.element,
  errors: ['billing.license_invalid', 'admin.license_redeemed'],
});

export const searchOrders = endpointIn(read, 'GET /admin/billing/orders', "Orders by number, id or the buyer's email (the newest 50)", {
  query: adminOrderSearchQuerySchema, response: adminOrderListSchema,
});

export const refundOrder = endpointIn(moneySensitive, 'POST /admin/billing/orders/{id}/refund', "Refunds a paid order in full through billing's refund (the processor, then the ledger's reverse entry): once, even when two operators ask at once", {
  params: adminOrderParamsSchema, body: adminReasonRequestSchema, response: adminOrderSchema,
  errors: ['admin.not_found', 'admin.order_not_refundable', 'admin.order_already_refunded', 'billing.processor_unavailable'],
});

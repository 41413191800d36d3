/** The billing module: cards, subscriptions, orders and invoices, promo codes, the business trial, licenses, renewals. */
export { addMonths, createBillingService, RENEWAL_LEASE_MS, type BillingDependencies, type BillingService } from './service';
export { billingRoutes } from './routes';
export { installReceiptJob, installRenewalJob } from './job';
export { RECEIPT_LEASE_MS, RECEIPT_RETRY_MS } from './receipts';
export { issueLicense, verifyLicense } from './licenses';
export { renderInvoice } from './invoice';
export { billingAdmin, BillingAdminError, licenseSecretOf, LICENSE_DEFAULT_DAYS, type PromoAddInput, type PromoListing } from './admin';
export { billingConsole, type BillingConsole } from './admin-console';
export { billingAdminRoutes } from './admin-routes';
export { billingModule } from './module';

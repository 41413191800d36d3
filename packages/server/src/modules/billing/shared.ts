import { findPlan, isBillingCurrency, isLanguage, paths, planPrice, type BillingCurrency, type BrandId, type Language, type Plan } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import type { CaptchaVerifier } from '../../platform/captcha';
import { AppError, fieldError } from '../../platform/errors';
import { createIdempotency } from '../../platform/idempotency';
import { sendInBackground, type MailAttachment, type Mailer } from '../../platform/mail';
import type { PaymentProcessor } from '../../platform/payments';
import type { RateLimiter } from '../../platform/rate-limit';
import type { OrganizationService } from '../organizations';
import { createUserService, type UserRow } from '../users';
import { billingCopy, billingMail } from './mail';
import { billingQueries, type SubscriptionRow } from './queries';

/** What billing's parts share: the dependencies, small helpers, and the context each part is made with. */

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface BillingLogger {
  info(object: object, message: string): void;
  error(object: unknown, message: string): void;
}

export interface BillingDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: BillingLogger;
  processor: PaymentProcessor;
  organizations: OrganizationService;
  /** The business trial's limits and captcha (a node without them, as the tests' job nodes, serves no business trial). */
  limiter?: RateLimiter;
  captcha?: CaptchaVerifier;
  /** Key of AppSumo license codes. */
  licenseSecret: string;
  /** false: no receipt mails (the renewal benchmark measures the job alone; a receipt's PDF costs ~0.35 s of CPU here). */
  receipts?: boolean;
  /** false: a paid order's receipt waits for the receipt job instead of this node sending it right away (tests of the queue). */
  sendReceiptsNow?: boolean;
  /** Test hook: runs after a renewal's charge, before the subscription moves on (where a crash hurts most). */
  afterRenewalCharge?: (subscriptionId: string) => Promise<void> | void;
}


export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const last = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, last));
  return result;
}

export const brandOfProduct = (product: string): BrandId => (product === 'pwdmanager' || product === 'secret' ? 'locker' : 'platform');
export const languageOf = (user: Pick<UserRow, 'language'>): Language => (isLanguage(user.language) ? user.language : 'en');
export const currencyOf = (value: string): BillingCurrency => (isBillingCurrency(value) ? value : 'USD');
export const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
export const invoiceNumber = (now: Date, id: string) => `INV-${now.toISOString().slice(0, 7).replace('-', '')}-${id.slice(0, 8).toUpperCase()}`;

export function declineError(code: string | null): AppError {
  return new AppError(code === 'insufficient_funds' ? 'billing.insufficient_funds' : 'billing.card_declined');
}

/** The plan and its price for the period, currency and seats, or 'plan unavailable' (free, lifetime or unknown plans are not sold). */
export function planAndPrice(planId: string, months: number, currency: BillingCurrency, seats = 1): { plan: Plan; price: number } {
  const plan = findPlan(planId);
  const price = plan && !plan.free && !plan.lifetime ? planPrice(plan, months, currency, seats) : null;
  if (!plan || price === null) throw fieldError('plan', 'billing.plan_unavailable');
  return { plan, price };
}

/** The context every part of billing is made with: its dependencies, queries, and the mails and lookups they all use. */
export function billingContext(deps: BillingDependencies) {
  const { db, clock, config, log } = deps;
  const q = billingQueries(db);
  const users = createUserService(db);
  const idempotency = createIdempotency(db, clock);

  function compose(user: Pick<UserRow, 'email' | 'fullName' | 'language'>, brand: BrandId, build: (copy: ReturnType<typeof billingCopy>, lang: Language) => { title: string; lines: string[] }, attachments?: MailAttachment[]) {
    const lang = languageOf(user);
    const notice = build(billingCopy(lang), lang);
    const rendered = billingMail({ ...notice, link: { label: lang === 'vi' ? 'Xem thanh toán' : 'View billing', url: `${originFor(config, brand)}${paths.billing}` }, lang, brand, name: user.fullName });
    return { to: user.email, ...rendered, ...(attachments ? { attachments } : {}) };
  }

  function mail(...args: Parameters<typeof compose>) {
    sendInBackground(deps.mailer, log, compose(...args));
  }


  function mailCanceled(subscription: SubscriptionRow, user: UserRow | undefined) {
    if (!user) return;
    mail(user, brandOfProduct(subscription.product), (copy) => copy.canceled({ plan: findPlan(subscription.plan)?.name ?? subscription.plan }));
  }

  async function userOrThrow(userId: string): Promise<UserRow> {
    const user = await users.findById(userId);
    if (!user) throw new AppError('unauthorized');
    return user;
  }

  return { deps, db, clock, config, log, processor: deps.processor, q, users, idempotency, compose, mail, mailCanceled, userOrThrow };
}

export type BillingContext = ReturnType<typeof billingContext>;

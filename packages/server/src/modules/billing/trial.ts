import { randomUUID } from 'node:crypto';
import { formatDate, type BillingCurrency, type Language } from '@portal/contracts';
import { requireCaptcha } from '../../platform/captcha';
import { AppError } from '../../platform/errors';
import { limits, rateKey, rateLimited } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { DAY_MS, planAndPrice, type BillingContext } from './shared';

/** The business plan's trial is its own product for "once per person and product". */
const BUSINESS_TRIAL_PRODUCT = 'pwdmanager_business';

/** The business plan's trial: a company (organization) and its Locker business subscription, once per person. */
export function createBusinessTrial(ctx: BillingContext) {
  const { deps, clock, q, mail, userOrThrow } = ctx;

  return {
    /**
     * Starts the signed-in person's company trial: only for their own activated account (the
     * email asked for must be theirs), counted per account and address, behind the captcha. The
     * person becomes the organization's owner and the trial's subscription is theirs.
     */
    async businessTrial(
      userId: string,
      input: { company: string; full_name: string; email: string; phone?: string; members?: number; language?: Language; captcha?: string },
      origin: RequestOrigin,
    ) {
      if (!deps.limiter || !deps.captcha) throw new AppError('not_found');
      const { businessTrialsPerAccount: perAccount, businessTrialsPerIp: perIp } = limits;
      rateLimited(await deps.limiter.consume(rateKey(perIp, origin.limitAddress), perIp));
      rateLimited(await deps.limiter.consume(rateKey(perAccount, userId), perAccount));
      await requireCaptcha(deps.captcha, input.captcha, origin.ip);
      const user = await userOrThrow(userId);
      if (!user.activatedAt) throw new AppError('auth.not_activated');
      if (input.email.trim().toLowerCase() !== user.email.toLowerCase()) throw new AppError('billing.trial_email_mismatch');
      const email = user.email;
      // The same trial asked again says so (7013) before the enterprise it made (7015).
      if ((await q.hadTrial(`email:${email}`, BUSINESS_TRIAL_PRODUCT)) || (await q.hadTrial(user.id, BUSINESS_TRIAL_PRODUCT))) throw new AppError('7013', { email }, { email });
      if (await deps.organizations.membershipOf(email)) throw new AppError('7015', { email }, { email });
      if (await q.liveSubscription(user.id, 'pwdmanager')) throw new AppError('7014', { email }, { email });
      // The trial is claimed in one statement: two requests at once start one.
      if (!(await q.useTrial(user.id, BUSINESS_TRIAL_PRODUCT))) throw new AppError('7013', { email }, { email });
      await q.useTrial(`email:${email}`, BUSINESS_TRIAL_PRODUCT);
      const organization = await deps.organizations.create({ name: input.company, adminEmail: email, adminUserId: user.id });
      if (!organization) throw new AppError('7015', { email }, { email });
      const lang = input.language ?? origin.lang;
      const currency: BillingCurrency = lang === 'vi' ? 'VND' : 'USD';
      const seats = input.members ?? 1;
      const { plan, price } = planAndPrice('pwdmanager.business', 1, currency, seats);
      const now = clock.now();
      const trialEnd = new Date(now.getTime() + plan.trialDays * DAY_MS);
      await q.insertSubscription({
        id: randomUUID(),
        userId: user.id,
        organizationId: organization.id,
        product: plan.product,
        plan: plan.id,
        months: 1,
        seats,
        currency,
        price,
        status: 'trialing',
        trialEndsAt: trialEnd,
        currentPeriodStart: now,
        currentPeriodEnd: trialEnd,
        nextAttemptAt: trialEnd,
        createdAt: now,
        updatedAt: now,
      });
      mail(user, 'locker', (copy) => copy.businessTrial({ company: input.company, email, date: formatDate(trialEnd, lang, { timeZone: 'UTC' }), days: plan.trialDays }));
      return { email, organization_id: organization.id, trial_ends_at: trialEnd.toISOString() };
    },
  };
}

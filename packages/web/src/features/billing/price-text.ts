import { useTranslation } from 'react-i18next';
import { formatMinor, type BillingCurrency, type Plan } from '@portal/contracts';
import { offeredPrice } from '../../lib/billing-display';
import { useLanguage } from '../../lib/use-language';

/** Prices in words: "$1.99/mo", "$47.88/yr", "$90 per 24 months"; and "from …" where longer periods cost less a month. */
export function usePriceText() {
  const { t } = useTranslation();
  const language = useLanguage();
  /** `minor` for `months` months, as stated (never divided into a month). */
  const period = (minor: number, currency: BillingCurrency, months: number, from = false): string => {
    const price = formatMinor(minor, currency, language);
    if (months === 1) return t(from ? 'billing.checkout.fromPerMonth' : 'billing.checkout.perMonth', { price });
    return months === 12 ? t('billing.checkout.perYear', { price }) : t('billing.checkout.perMonths', { price, count: months });
  };
  /** The catalogue's offer of a plan (see offeredPrice), or null for a plan not sold. */
  const offered = (plan: Plan, currency: BillingCurrency): string | null => {
    const price = offeredPrice(plan, currency);
    return price && period(price.minor, currency, price.months, price.from);
  };
  return { period, offered };
}

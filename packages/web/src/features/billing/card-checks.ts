import cardValidator from 'card-validator';
import { cardBrands, type CardBrand } from '@portal/contracts';

/**
 * The payment page's card checks (the spec's validation rules) with card-validator, each answering the
 * catalogue code whose text the page shows: invalid number, incomplete number, incomplete
 * security code, incomplete expiry, invalid expiry year, expiry year in the past.
 */
export type CardCheckCode =
  | 'billing.card_invalid_number'
  | 'billing.card_incomplete_number'
  | 'billing.card_incomplete_cvc'
  | 'billing.card_incomplete_expiry'
  | 'billing.card_invalid_expiry_year'
  | 'billing.card_expiry_year_past'
  | 'billing.card_brand_not_accepted';

export interface CardInput {
  number: string;
  /** MM/YY or MM/YYYY. */
  expiry: string;
  cvc: string;
}

export interface CheckedCard {
  brand: CardBrand;
  number: string;
  expMonth: number;
  expYear: number;
}

export function cardBrandOf(number: string): CardBrand | null {
  const type = cardValidator.number(number.replace(/[\s-]/g, '')).card?.type;
  return (cardBrands as readonly string[]).includes(type ?? '') ? (type as CardBrand) : null;
}

export function checkCard(input: CardInput, now: Date = new Date()): { errors: Partial<Record<keyof CardInput, CardCheckCode>>; card?: CheckedCard } {
  const errors: Partial<Record<keyof CardInput, CardCheckCode>> = {};
  const number = input.number.replace(/[\s-]/g, '');
  const checked = cardValidator.number(number);
  if (!/^\d*$/.test(number) || (number && !checked.isPotentiallyValid)) errors.number = 'billing.card_invalid_number';
  else if (!checked.isValid || !checked.card) errors.number = checked.card?.lengths.includes(number.length) ? 'billing.card_invalid_number' : 'billing.card_incomplete_number';
  else if (!cardBrandOf(number)) errors.number = 'billing.card_brand_not_accepted';

  const cvcSize = checked.card?.code.size ?? 3;
  if (!cardValidator.cvv(input.cvc.trim(), cvcSize).isValid) errors.cvc = 'billing.card_incomplete_cvc';

  let expMonth = 0;
  let expYear = 0;
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  if (!expiry) errors.expiry = 'billing.card_incomplete_expiry';
  else {
    expMonth = Number(expiry[1]);
    expYear = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const year = now.getFullYear();
    if (expMonth < 1 || expMonth > 12) errors.expiry = 'billing.card_incomplete_expiry';
    else if (expYear < year || (expYear === year && expMonth < now.getMonth() + 1)) errors.expiry = 'billing.card_expiry_year_past';
    else if (!cardValidator.expirationYear(String(expYear)).isValid) errors.expiry = 'billing.card_invalid_expiry_year';
  }
  if (Object.keys(errors).length) return { errors };
  return { errors, card: { brand: cardBrandOf(number)!, number, expMonth, expYear } };
}

import { currencyMinorDigits, formatMoney, type Currency } from '../format';
import type { Language } from '../constants';

/**
 * Billing money: integer minor units in the currency's own precision (USD cents, VND dong,
 * no decimals). Every amount here is a safe integer; rounding happens once, half away from
 * zero, in the functions below and nowhere else. Display goes through `formatMoney`.
 */
export const billingCurrencies = ['USD', 'VND'] as const satisfies readonly Currency[];
export type BillingCurrency = (typeof billingCurrencies)[number];

export interface Money {
  /** Integer minor units (cents for USD, dong for VND). */
  minor: number;
  currency: BillingCurrency;
}

export function isBillingCurrency(value: unknown): value is BillingCurrency {
  return value === 'USD' || value === 'VND';
}

function assertMinor(value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Minor units must be a safe integer, got ${value}`);
}

/** `numerator / denominator` rounded half away from zero, exact for safe integers (BigInt). */
export function divideRounded(numerator: number, denominator: number): number {
  assertMinor(numerator);
  assertMinor(denominator);
  if (denominator === 0) throw new RangeError('Division by zero');
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (2n * an + ad) / (2n * ad);
  return Number(negative ? -q : q);
}

/** A percentage in basis points (1250 = 12.5 %) of an amount, rounded to the minor unit. */
export function percentOf(minor: number, basisPoints: number): number {
  assertMinor(minor);
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) throw new RangeError(`Basis points out of range: ${basisPoints}`);
  return divideRounded(minor * basisPoints, 10_000);
}

/** Major units as written by people (`"1.29"`) to minor units of the currency; null when it has too many decimals. */
export function toMinor(major: string, currency: BillingCurrency): number | null {
  const digits = currencyMinorDigits[currency];
  const match = /^(\d+)(?:\.(\d+))?$/.exec(major.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const value = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(value) ? value : null;
}

/** A promo code's effect: a percentage (basis points) or a fixed amount in one currency. */
export type Discount = { kind: 'percent'; basisPoints: number } | { kind: 'fixed'; amount: Money };

/** What a discount takes off a price: never more than the price, never negative; a fixed amount in another currency takes nothing. */
export function discountAmount(price: Money, discount: Discount | null): number {
  if (!discount) return 0;
  if (discount.kind === 'percent') return Math.min(price.minor, percentOf(price.minor, discount.basisPoints));
  if (discount.amount.currency !== price.currency) return 0;
  return Math.max(0, Math.min(price.minor, discount.amount.minor));
}

/**
 * The unused part of what was paid for a period, credited when the plan or period changes:
 * `paid * remaining / length`, rounded to the minor unit, between 0 and `paid`.
 */
export function prorationCredit(paidMinor: number, periodStartMs: number, periodEndMs: number, nowMs: number): number {
  assertMinor(paidMinor);
  if (paidMinor <= 0 || periodEndMs <= periodStartMs) return 0;
  const remaining = Math.min(Math.max(periodEndMs - nowMs, 0), periodEndMs - periodStartMs);
  // BigInt: the product of an amount and a duration in ms passes 2^53 for large amounts.
  const numerator = BigInt(paidMinor) * BigInt(Math.floor(remaining));
  const length = BigInt(Math.floor(periodEndMs - periodStartMs));
  return Math.min(paidMinor, Number((2n * numerator + length) / (2n * length)));
}

/** The order's amounts (the spec's entities: price, discount, subtotal, total), all in minor units of one currency. */
export interface OrderTotals {
  currency: BillingCurrency;
  /** List price of the plan for the period (times the seats, for per-member plans). */
  price: number;
  /** What the promo code takes off. */
  discount: number;
  /** price - discount. */
  subtotal: number;
  /** Unused value of the plan being replaced (a change with proration). */
  credit: number;
  /** subtotal - credit, never below zero: what is charged. */
  total: number;
}

export function orderTotals(input: { price: Money; discount?: Discount | null; creditMinor?: number }): OrderTotals {
  assertMinor(input.price.minor);
  if (input.price.minor < 0) throw new RangeError('A price is never negative');
  const discount = discountAmount(input.price, input.discount ?? null);
  const subtotal = input.price.minor - discount;
  const credit = Math.max(0, Math.min(subtotal, input.creditMinor ?? 0));
  return { currency: input.price.currency, price: input.price.minor, discount, subtotal, credit, total: subtotal - credit };
}

/** `formatMoney` for billing amounts in minor units. */
export function formatMinor(minor: number, currency: BillingCurrency, lang: Language): string {
  return formatMoney({ minor }, currency, lang);
}

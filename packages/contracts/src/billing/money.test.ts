import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../format';
import { billingCurrencies, discountAmount, divideRounded, formatMinor, orderTotals, percentOf, prorationCredit, toMinor, type Discount } from './money';
import { findPlan, fromMonthlyPrice, planPeriods, planPrice, plans } from './plans';

const currency = fc.constantFrom(...billingCurrencies);
const minor = fc.integer({ min: 0, max: 10_000_000_000 });
const discount: fc.Arbitrary<Discount | null> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 10_000 }).map((basisPoints) => ({ kind: 'percent' as const, basisPoints })),
  fc.record({ minor: fc.integer({ min: 0, max: 20_000_000_000 }), currency }).map((amount) => ({ kind: 'fixed' as const, amount })),
);

describe('billing money (integer minor units)', () => {
  it('divides with rounding half away from zero, exactly', () => {
    expect(divideRounded(5, 2)).toBe(3);
    expect(divideRounded(-5, 2)).toBe(-3);
    expect(divideRounded(4, 3)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 1e6 }), (n, d) => {
        const q = divideRounded(n, d);
        expect(Number.isSafeInteger(q)).toBe(true);
        expect(Math.abs(q * d - n) * 2).toBeLessThanOrEqual(d);
      }),
    );
  });

  it('totals: integers, price - discount = subtotal, subtotal - credit = total, nothing negative, discount never above the price', () => {
    fc.assert(
      fc.property(minor, currency, discount, fc.integer({ min: -1000, max: 20_000_000_000 }), (price, cur, off, credit) => {
        const totals = orderTotals({ price: { minor: price, currency: cur }, discount: off, creditMinor: credit });
        for (const value of [totals.price, totals.discount, totals.subtotal, totals.credit, totals.total]) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        expect(totals.subtotal).toBe(totals.price - totals.discount);
        expect(totals.total).toBe(totals.subtotal - totals.credit);
        expect(totals.discount).toBeLessThanOrEqual(totals.price);
        expect(totals.currency).toBe(cur);
      }),
    );
  });

  it('percent discounts round to the currency minor unit and grow with the percentage', () => {
    expect(percentOf(199, 1000)).toBe(20); // 10% of $1.99 = 19.9 cents -> 20
    expect(percentOf(49_000, 1250)).toBe(6125); // VND has no decimals: 6,125 dong
    fc.assert(
      fc.property(minor, fc.integer({ min: 0, max: 9_999 }), (price, bp) => {
        expect(percentOf(price, bp)).toBeLessThanOrEqual(percentOf(price, bp + 1));
        expect(Math.abs(percentOf(price, bp) * 10_000 - price * bp)).toBeLessThanOrEqual(5_000);
      }),
    );
  });

  it('a fixed discount in another currency takes nothing; one above the price takes the price', () => {
    expect(discountAmount({ minor: 1000, currency: 'USD' }, { kind: 'fixed', amount: { minor: 500, currency: 'VND' } })).toBe(0);
    expect(discountAmount({ minor: 1000, currency: 'USD' }, { kind: 'fixed', amount: { minor: 5000, currency: 'USD' } })).toBe(1000);
  });

  it('proration credits the unused share of what was paid: within [0, paid], monotonic in time, whole at the start, zero at the end', () => {
    const day = 86_400_000;
    expect(prorationCredit(1548, 0, 365 * day, 0)).toBe(1548);
    expect(prorationCredit(1548, 0, 365 * day, 365 * day)).toBe(0);
    expect(prorationCredit(30_000, 0, 30 * day, 15 * day)).toBe(15_000);
    fc.assert(
      fc.property(minor, fc.integer({ min: 1, max: 1000 }), fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (paid, days, at, later) => {
        const end = days * day;
        const now = Math.floor(at * end);
        const credit = prorationCredit(paid, 0, end, now);
        expect(Number.isSafeInteger(credit)).toBe(true);
        expect(credit).toBeGreaterThanOrEqual(0);
        expect(credit).toBeLessThanOrEqual(paid);
        expect(prorationCredit(paid, 0, end, now + Math.floor(later * end))).toBeLessThanOrEqual(credit);
      }),
    );
  });

  it('reads major units per currency precision and formats minor units with the contracts format', () => {
    expect(toMinor('1.29', 'USD')).toBe(129);
    expect(toMinor('1.299', 'USD')).toBeNull();
    expect(toMinor('49000', 'VND')).toBe(49_000);
    expect(toMinor('49000.5', 'VND')).toBeNull();
    expect(formatMinor(129, 'USD', 'en')).toBe('$1.29');
    expect(formatMinor(1500, 'USD', 'en')).toBe('$15');
    expect(formatMinor(49_000, 'VND', 'vi')).toBe(formatMoney(49_000, 'VND', 'vi'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), (cents) => {
        const text = formatMinor(cents, 'USD', 'en');
        expect(text.replace(/[$,]/g, '')).toBe(cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));
      }),
    );
  });
});

describe('plan catalogue', () => {
  it('premium is from $1.29/mo and family from $5.99/mo: the longest period per month', () => {
    expect(fromMonthlyPrice(findPlan('pwdmanager.premium')!, 'USD')).toBe(129);
    expect(fromMonthlyPrice(findPlan('pwdmanager.family')!, 'USD')).toBe(599);
  });

  it('every bought plan has a price in both currencies for each period it is sold for; business is per member', () => {
    for (const plan of plans) {
      for (const months of planPeriods(plan)) for (const cur of billingCurrencies) expect(Number.isSafeInteger(planPrice(plan, months, cur))).toBe(true);
      if (plan.free) expect(planPeriods(plan)).toEqual([]);
    }
    const business = findPlan('pwdmanager.business')!;
    expect(planPrice(business, 12, 'USD', 5)).toBe(5 * planPrice(business, 12, 'USD')!);
    expect(planPrice(findPlan('pwdmanager.premium')!, 12, 'USD', 5)).toBe(1548);
    expect(planPrice(findPlan('pwdmanager.premium')!, 24, 'USD')).toBeNull();
  });
});

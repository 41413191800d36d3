import { describe, expect, it } from 'vitest';
import { findPlan, formatMinor } from '@portal/contracts';
import { cardLabel, offeredPrice, planTitle } from './billing-display';

const plan = (id: string) => findPlan(id)!;

describe('planTitle', () => {
  it('names the product once where a plan is named after it', () => {
    expect(planTitle('bugbounty', 'Bug Bounty')).toBe('WhiteHub Bug Bounty');
    expect(planTitle('safechain', 'SafeChain')).toBe('SafeChain');
    expect(planTitle('vulnscan', 'Vulnerability Scanner')).toBe('CyStack Vulnerability Scanner');
    expect(planTitle('endpoint', 'Endpoint')).toBe('CyStack Endpoint');
  });

  it('puts a tier after its product', () => {
    expect(planTitle('pwdmanager', 'Premium')).toBe('Locker Password Manager Premium');
    expect(planTitle('secret', 'Business')).toBe('Locker Secrets Manager Business');
  });
});

describe('offeredPrice', () => {
  it('is "from" a month where the longest period divides into whole cents (the spec\'s $1.29 and $5.99)', () => {
    expect(offeredPrice(plan('pwdmanager.premium'), 'USD')).toEqual({ minor: 129, months: 1, from: true });
    expect(offeredPrice(plan('pwdmanager.family'), 'USD')).toEqual({ minor: 599, months: 1, from: true });
    expect(offeredPrice(plan('pwdmanager.premium'), 'VND')).toEqual({ minor: 29_000, months: 1, from: true });
  });

  it('is the stated yearly price where a month would need rounding (never $399.17 or $79.17)', () => {
    expect(offeredPrice(plan('bugbounty.standard'), 'USD')).toEqual({ minor: 479_000, months: 12, from: false });
    expect(offeredPrice(plan('vulnscan.standard'), 'USD')).toEqual({ minor: 95_000, months: 12, from: false });
    expect(offeredPrice(plan('secret.business'), 'VND')).toEqual({ minor: 4_400_000, months: 12, from: false });
    expect(formatMinor(offeredPrice(plan('bugbounty.standard'), 'USD')!.minor, 'USD', 'en')).toBe('$4,790');
  });

  it('is null for a plan that is not sold', () => {
    expect(offeredPrice(plan('pwdmanager.free'), 'USD')).toBeNull();
    expect(offeredPrice(plan('pwdmanager.lifetime'), 'USD')).toBeNull();
  });
});

it('cardLabel shows the brand and the last four digits only', () => {
  expect(cardLabel({ brand: 'visa', last4: '4242' })).toBe('Visa •••• 4242');
});

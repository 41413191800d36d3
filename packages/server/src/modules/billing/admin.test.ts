import { beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { manualClock } from '../../../test/clock';
import { fileDatabase } from '../../../test/db-target';
import { promoCodes } from '../../db/schema';
import { billingAdmin, BillingAdminError } from './admin';
import { verifyLicense } from './licenses';

const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
const SECRET = 'appsumo-test-secret-0123456789';
const database = fileDatabase();
let admin: ReturnType<typeof billingAdmin>;

beforeAll(async () => {
  admin = billingAdmin({ db: database.db, clock, licenseSecret: SECRET });
});

const messages = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ZodError) return error.issues.map((issue) => issue.message).join('; ');
    if (error instanceof BillingAdminError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('npm run billing -- promo', () => {
  it('adds percent and fixed codes per plan with expiry and limit, and lists them', async () => {
    const percent = await admin.addPromo({ code: 'spring25', percent: '25', plan: ['pwdmanager.premium'], expires: '2026-04-30', limit: '100' });
    expect(percent).toMatchObject({ code: 'SPRING25', discount: '25%', plans: ['pwdmanager.premium'], maxRedemptions: 100, state: 'active' });
    expect(percent.expiresAt!.toISOString()).toBe('2026-04-30T23:59:59.999Z');
    const fixed = await admin.addPromo({ code: 'FIVE', amount: '5.50', currency: 'USD' });
    const [row] = await database.db.select().from(promoCodes).where((await import('drizzle-orm')).eq(promoCodes.code, 'FIVE'));
    expect(row).toMatchObject({ kind: 'fixed', amount: 550, currency: 'USD', basisPoints: null, plans: [], expiresAt: null, maxRedemptions: null });
    expect(fixed.state).toBe('active');
    await admin.addPromo({ code: 'VND50K', amount: '50000', currency: 'VND' });
    expect((await admin.listPromos()).map((promo) => promo.code)).toEqual(['SPRING25', 'FIVE', 'VND50K']);
  });

  it('refuses bad input with a clear message', async () => {
    expect(await messages(admin.addPromo({ percent: '10' }))).toContain('code is required');
    expect(await messages(admin.addPromo({ code: 'a b', percent: '10' }))).toContain('code must be 3 to 32');
    expect(await messages(admin.addPromo({ code: 'BOTH', percent: '10', amount: '1', currency: 'USD' }))).toContain('either --percent or --amount');
    expect(await messages(admin.addPromo({ code: 'NONE' }))).toContain('either --percent or --amount');
    expect(await messages(admin.addPromo({ code: 'BIG', percent: '150' }))).toContain('at most 100');
    expect(await messages(admin.addPromo({ code: 'ZERO', percent: '0' }))).toContain('above 0');
    expect(await messages(admin.addPromo({ code: 'WORD', percent: 'ten' }))).toContain('percent must be a number');
    expect(await messages(admin.addPromo({ code: 'NOCUR', amount: '5' }))).toContain('needs --currency');
    expect(await messages(admin.addPromo({ code: 'EUR', amount: '5', currency: 'EUR' }))).toContain('currency must be one of USD, VND');
    expect(await messages(admin.addPromo({ code: 'VNDDEC', amount: '5.5', currency: 'VND' }))).toContain('at most its decimals');
    expect(await messages(admin.addPromo({ code: 'PLAN', percent: '5', plan: ['pwdmanager.gold'] }))).toContain('plan must be one of');
    expect(await messages(admin.addPromo({ code: 'PAST', percent: '5', expires: '2026-02-01' }))).toContain('expires must be in the future');
    expect(await messages(admin.addPromo({ code: 'BADDATE', percent: '5', expires: 'soon' }))).toContain('expires must be a date');
    expect(await messages(admin.addPromo({ code: 'LIMIT', percent: '5', limit: '0' }))).toContain('at least 1');
    expect(await messages(admin.addPromo({ code: 'LIMIT', percent: '5', limit: '1.5' }))).toContain('whole number');
    expect(await messages(admin.addPromo({ code: 'spring25', percent: '5' }))).toBe('promo code SPRING25 already exists');
  });

  it('disables a code at once (it shows as expired) and names an unknown one', async () => {
    await admin.disablePromo('five');
    const five = (await admin.listPromos()).find((promo) => promo.code === 'FIVE')!;
    expect(five.state).toBe('expired');
    expect(five.expiresAt!.getTime()).toBe(clock.now().getTime());
    expect(await messages(admin.disablePromo('NOPE'))).toBe('no promo code NOPE');
    expect(await messages(admin.disablePromo(undefined))).toContain('which code?');
  });
});

describe('npm run billing -- license issue', () => {
  it('prints distinct codes of a lifetime plan that verify until their expiry', () => {
    const issued = admin.issueLicenses({ plan: 'pwdmanager.lifetime', count: '3', expires: '2027-01-31' });
    expect(issued.codes).toHaveLength(3);
    expect(new Set(issued.codes).size).toBe(3);
    for (const code of issued.codes) {
      expect(code).toMatch(/^[0-9a-f]+$/);
      expect(verifyLicense(code, SECRET, clock.now())).toEqual({ plan: 'pwdmanager.lifetime', expiresAt: Math.floor(Date.parse('2027-01-31T23:59:59.999Z') / 1000) });
      expect(verifyLicense(code, SECRET, new Date('2027-02-01T00:00:00Z'))).toBeNull();
    }
    expect(admin.issueLicenses({ plan: 'pwdmanager.lifetime' }).codes).toHaveLength(1);
  });

  it('refuses a plan that is not a lifetime plan, a bad count and a past expiry', () => {
    expect(() => admin.issueLicenses({ plan: 'pwdmanager.premium' })).toThrow(/plan must be one of pwdmanager.lifetime/);
    expect(() => admin.issueLicenses({})).toThrow(BillingAdminError);
    expect(() => admin.issueLicenses({ plan: 'pwdmanager.lifetime', count: '0' })).toThrow('count must be at least 1');
    expect(() => admin.issueLicenses({ plan: 'pwdmanager.lifetime', count: '5000' })).toThrow('count must be at most 1000');
    expect(() => admin.issueLicenses({ plan: 'pwdmanager.lifetime', count: 'x' })).toThrow('count must be a whole number');
    expect(() => admin.issueLicenses({ plan: 'pwdmanager.lifetime', expires: '2020-01-01' })).toThrow(/expires must be in the future/);
  });
});

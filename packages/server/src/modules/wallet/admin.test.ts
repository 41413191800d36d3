import { beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { refusalOf } from '../../../test/refusal';
import { users } from '../../db/schema';
import { walletAdmin, WalletAdminError } from './admin';

const database = fileDatabase();
let admin: ReturnType<typeof walletAdmin>;

beforeAll(async () => {
  admin = walletAdmin({ db: database.db, clock: { now: () => new Date() } });
  await database.db.insert(users).values({ id: crypto.randomUUID(), email: 'ada@example.com', fullName: 'Ada', username: 'ada', activatedAt: new Date() });
});

const refusal = (promise: Promise<unknown>) => refusalOf(promise, WalletAdminError);

describe('npm run wallet -- adjust', () => {
  it('puts money in and takes it out with a note, by email or username', async () => {
    expect(await admin.adjust({ identifier: 'ada@example.com', currency: 'vnd', amount: '250000', note: 'Bank transfer 2026-11-20' })).toEqual({ email: 'ada@example.com', currency: 'VND', balance: '250000' });
    expect(await admin.adjust({ identifier: 'ada', currency: 'VND', amount: '-50000', note: 'Correction' })).toMatchObject({ balance: '200000' });
    expect(await admin.adjust({ identifier: 'ada', currency: 'WHC', amount: '0.00000001', note: 'Dust' })).toMatchObject({ balance: '1' });
  });

  it('refuses what would break a rule, and moves nothing', async () => {
    expect(await refusal(admin.adjust({ identifier: 'ada', currency: 'VND', amount: '-999999', note: 'x' }))).toBe('the balance is too low to take that out');
    expect(await refusal(admin.adjust({ identifier: 'ada', currency: 'EUR', amount: '1', note: 'x' }))).toBe('currency must be USD, VND or WHC');
    expect(await refusal(admin.adjust({ identifier: 'ada', currency: 'VND', amount: '1.5', note: 'x' }))).toMatch(/^amount must be above zero/);
    expect(await refusal(admin.adjust({ identifier: 'ada', currency: 'USD', amount: '1', note: ' ' }))).toMatch(/^--note is required/);
    expect(await refusal(admin.adjust({ identifier: 'nobody', currency: 'USD', amount: '1', note: 'x' }))).toBe('no account has the email or username nobody');
    expect(await admin.adjust({ identifier: 'ada', currency: 'VND', amount: '1', note: 'check' })).toMatchObject({ balance: '200001' });
  });
});

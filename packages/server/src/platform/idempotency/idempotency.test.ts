import { beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { fileDatabase } from '../../../test/db-target';
import { AppError, fieldError } from '../errors';
import { createIdempotency } from './index';

const clock = manualClock();
const database = fileDatabase();
/** The keys under test, on the file's database and the manual clock. */
let keys: ReturnType<typeof createIdempotency>;
beforeAll(async () => {
  keys = createIdempotency(database.db, clock);
});

describe('idempotency keys', () => {
  it('runs the first request once and answers every repeat with its result, refusals included', async () => {
    let runs = 0;
    const work = async () => ({ run: ++runs });
    expect(await keys.run('user-1', 'k1', { a: 1 }, work)).toEqual({ run: 1 });
    expect(await keys.run('user-1', 'k1', { a: 1 }, work)).toEqual({ run: 1 });
    expect(await keys.run('user-2', 'k1', { a: 1 }, work)).toEqual({ run: 2 });
    await expect(keys.run('user-1', 'k1', { a: 2 }, work)).rejects.toMatchObject({ code: 'billing.idempotency_conflict' });

    const refuse = async () => {
      runs += 1;
      throw fieldError('promo_code', 'billing.promo_invalid');
    };
    await expect(keys.run('user-1', 'k2', {}, refuse)).rejects.toMatchObject({ message: 'Promo code not valid' });
    const replayed = await keys.run('user-1', 'k2', {}, refuse).catch((error: unknown) => error);
    expect(replayed).toBeInstanceOf(AppError);
    expect((replayed as AppError).toBody()).toEqual({
      code: 'validation_error',
      message: 'Promo code not valid',
      details: { fields: { promo_code: { code: 'billing.promo_invalid', message: 'Promo code not valid' } } },
    });
    expect(runs).toBe(3);
  });

  it('refuses a repeat while the first still runs, takes over a key whose run died after its lease, and frees a key on an unexpected failure', async () => {
    let release!: () => void;
    const slow = keys.run('u', 'slow', {}, () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(keys.run('u', 'slow', {}, async () => 'second')).rejects.toMatchObject({ code: 'billing.idempotency_conflict' });
    release();
    expect(await slow).toBe('first');

    await expect(keys.run('u', 'crashed', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await keys.run('u', 'crashed', {}, async () => 'retried')).toBe('retried');

    // A run that never finishes (its node died): after its lease the next request runs instead.
    void keys.run('u', 'leased', {}, () => new Promise<string>(() => undefined), { leaseMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(keys.run('u', 'leased', {}, async () => 'too soon')).rejects.toMatchObject({ code: 'billing.idempotency_conflict' });
    clock.advance(2000);
    expect(await keys.run('u', 'leased', {}, async () => 'taken over')).toBe('taken over');
  });
});

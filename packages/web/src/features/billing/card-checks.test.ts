import { describe, expect, it } from 'vitest';
import { checkCard } from './card-checks';

const now = new Date(2026, 2, 15);
const check = (input: Partial<{ number: string; expiry: string; cvc: string }>) => checkCard({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', ...input }, now);

describe('card checks (the spec validation rules with card-validator)', () => {
  it('says which card rule fails', () => {
    expect(check({ number: '4242 4242 4242 4241' }).errors.number).toBe('billing.card_invalid_number');
    expect(check({ number: '1234' }).errors.number).toBe('billing.card_invalid_number');
    expect(check({ number: '4242 4242' }).errors.number).toBe('billing.card_incomplete_number');
    expect(check({ number: '' }).errors.number).toBe('billing.card_incomplete_number');
    expect(check({ number: '6200 0000 0000 0005' }).errors.number).toBe('billing.card_brand_not_accepted');
    expect(check({ cvc: '12' }).errors.cvc).toBe('billing.card_incomplete_cvc');
    expect(check({ number: '3782 822463 10005', cvc: '123' }).errors.cvc).toBe('billing.card_incomplete_cvc');
    expect(check({ expiry: '12/' }).errors.expiry).toBe('billing.card_incomplete_expiry');
    expect(check({ expiry: '13/30' }).errors.expiry).toBe('billing.card_incomplete_expiry');
    expect(check({ expiry: '12/24' }).errors.expiry).toBe('billing.card_expiry_year_past');
    expect(check({ expiry: '02/2026' }).errors.expiry).toBe('billing.card_expiry_year_past');
    expect(check({ expiry: '12/2099' }).errors.expiry).toBe('billing.card_invalid_expiry_year');
  });

  it('accepts the six brands and answers the parsed card', () => {
    for (const [number, brand, cvc] of [
      ['4242424242424242', 'visa', '123'],
      ['5555 5555 5555 4444', 'mastercard', '123'],
      ['3566 0020 2036 0505', 'jcb', '123'],
      ['3782 822463 10005', 'american-express', '1234'],
      ['6011 1111 1111 1117', 'discover', '123'],
      ['3622 720627 1667', 'diners-club', '123'],
    ] as const) {
      expect(check({ number, cvc })).toEqual({ errors: {}, card: { brand, number: number.replace(/\s/g, ''), expMonth: 12, expYear: 2030 } });
    }
  });
});

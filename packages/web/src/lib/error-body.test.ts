import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '@portal/contracts';
import { isErrorBody } from './error-body';

// The hand-written check must answer exactly as the contract's zod schema does.
describe('isErrorBody', () => {
  it.each([
    { code: 'not_found', message: 'Resource not found' },
    { code: '7015', message: 'x', details: { email: 'a@b.c' } },
    { code: 'x', message: '' , details: {} },
    { code: 'x', message: 'y', extra: true },
    { code: 1, message: 'y' },
    { code: 'x' },
    { message: 'y' },
    { code: 'x', message: 'y', details: null },
    { code: 'x', message: 'y', details: 'text' },
    null,
    'error',
    [],
  ])('agrees with errorBodySchema on %j', (value) => {
    expect(isErrorBody(value)).toBe(errorBodySchema.safeParse(value).success);
  });
});

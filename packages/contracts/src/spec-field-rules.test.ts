import { describe, expect, it } from 'vitest';
import { businessTrialRequestSchema } from './billing/schemas';
import { forgotVerifyCodeRequestSchema, profileMessages, updateMeRequestSchema } from './auth/schemas';

/** The first message a schema gives for `value` in `field`, or null when it passes. */
function refusal(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, body: object, field: string): string | null {
  const result = schema.safeParse(body);
  return result.error?.issues.find((issue) => issue.path[0] === field)?.message ?? null;
}

describe('the spec validation rules: company, username, address and organization are alphanumeric only', () => {
  const profile = (fields: object) => ({ full_name: 'Nguyễn Văn A', language: 'vi', ...fields });
  const trial = (company: string) => ({ company, full_name: 'Ada', email: 'ada@example.com' });

  it.each(['Acme Corp', 'Công ty', 'Ａｃｍｅ', '١٢٣', 'Acme-1', 'Acme_1', 'Acme\u00a0Corp'])('refuses %j with the field message', (value) => {
    expect(refusal(updateMeRequestSchema, profile({ company: value }), 'company')).toBe(profileMessages.company);
    expect(refusal(updateMeRequestSchema, profile({ organization: value }), 'organization')).toBe(profileMessages.organization);
    expect(refusal(updateMeRequestSchema, profile({ address: value }), 'address')).toBe(profileMessages.address);
    expect(refusal(businessTrialRequestSchema, trial(value), 'company')).toBe(profileMessages.company);
  });

  it('accepts A to Z in either case and the digits 0 to 9, trimmed; a full name keeps any script', () => {
    const parsed = updateMeRequestSchema.parse(profile({ company: ' Acme2024 ', organization: 'OWASP', address: '12StJames' }));
    expect(parsed).toMatchObject({ full_name: 'Nguyễn Văn A', company: 'Acme2024', organization: 'OWASP', address: '12StJames' });
    expect(businessTrialRequestSchema.parse(trial('AcmeCorp')).company).toBe('AcmeCorp');
  });
});

describe('the spec validation rules: the recovery code is 6 digits', () => {
  const body = (code: unknown) => ({ identifier: 'ada@example.com', code });

  it.each(['12345', '1234567', '12345a', '１２３４５６', '', 42])('refuses %j in those words', (code) => {
    expect(refusal(forgotVerifyCodeRequestSchema, body(code), 'code')).toBe('Recovery code is 6 digits');
  });

  it('accepts six digits', () => {
    expect(forgotVerifyCodeRequestSchema.parse(body(' 123456 ')).code).toBe('123456');
  });
});

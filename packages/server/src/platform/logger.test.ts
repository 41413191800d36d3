import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger';

describe('redactUrl', () => {
  it('masks tokens in link paths', () => {
    expect(redactUrl('/confirmation/abc123')).toBe('/confirmation/[redacted]');
    expect(redactUrl('/reset-pwd/abc123?x=1')).toBe('/reset-pwd/[redacted]?x=1');
    expect(redactUrl('/confirmation/education-email/zz')).toBe('/confirmation/education-email/[redacted]');
  });
  it('masks secret query values and keeps the rest', () => {
    expect(redactUrl('/o/cb?code=secret&state=s&lang=vi')).toBe('/o/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&lang=vi');
  });
  it('leaves plain paths alone', () => {
    expect(redactUrl('/v3/sso/me')).toBe('/v3/sso/me');
  });
});

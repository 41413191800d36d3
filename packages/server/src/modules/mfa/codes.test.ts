import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { matchTotp, newRecoveryCode, newTotpSecret, normalizeRecoveryCode, recoveryCodeHash, totpUri } from './codes';

/** RFC 6238 appendix B and RFC 4226 appendix D use the ASCII secret "12345678901234567890". */
const RFC_SECRET = new TextEncoder().encode('12345678901234567890');

describe('one-time password vectors', () => {
  it('matches the RFC 6238 TOTP vectors (SHA-1, 8 digits, 30 s)', async () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
    ];
    for (const [epoch, expected] of vectors) {
      expect(await generate({ secret: RFC_SECRET, epoch, digits: 8, algorithm: 'sha1', period: 30 })).toBe(expected);
    }
  });

  it('matches the RFC 4226 HOTP vectors (counters 0 to 9)', async () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    const actual = [];
    for (let counter = 0; counter < 10; counter += 1) actual.push(await generate({ secret: RFC_SECRET, strategy: 'hotp', counter }));
    expect(actual).toEqual(expected);
  });
});

describe('TOTP as the server checks it', () => {
  const secret = newTotpSecret();
  const at = (seconds: number) => new Date(seconds * 1000);
  const codeAt = (seconds: number) => generate({ secret, epoch: seconds });
  // The middle of step 50,000,000.
  const now = 50_000_000 * 30 + 15;

  it('makes 160-bit Base32 secrets and an otpauth URI naming the issuer', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totpUri('CyStack ID', 'a@example.com', secret));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('CyStack ID');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(uri.pathname)).toContain('CyStack ID:a@example.com');
  });

  it('accepts the current step and one step of drift either way, never two', async () => {
    expect(await matchTotp(secret, await codeAt(now), at(now))).toBe(50_000_000);
    expect(await matchTotp(secret, await codeAt(now - 30), at(now))).toBe(49_999_999);
    expect(await matchTotp(secret, await codeAt(now + 30), at(now))).toBe(50_000_001);
    expect(await matchTotp(secret, await codeAt(now - 60), at(now))).toBeNull();
    expect(await matchTotp(secret, await codeAt(now + 60), at(now))).toBeNull();
  });

  it('refuses a step at or before the last accepted one', async () => {
    const code = await codeAt(now);
    expect(await matchTotp(secret, code, at(now), 49_999_999)).toBe(50_000_000);
    expect(await matchTotp(secret, code, at(now), 50_000_000)).toBeNull();
  });

  it('answers null, not an exception, for malformed codes', async () => {
    expect(await matchTotp(secret, '12345', at(now))).toBeNull();
    expect(await matchTotp(secret, 'abcdef', at(now))).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are 10 Crockford base32 characters in two groups, all different', () => {
    const codes = Array.from({ length: 200 }, newRecoveryCode);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('hash the same however they are typed', () => {
    const code = 'AB1C0-DEF23';
    expect(normalizeRecoveryCode(' ab1c0def23 ')).toBe('AB1C0DEF23');
    expect(recoveryCodeHash('abic0-def23')).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash('ABLCO-DEF23')).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash('AB1C0-DEF24')).not.toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).toMatch(/^[0-9a-f]{64}$/);
  });
});

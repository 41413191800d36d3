import { describe, expect, it } from 'vitest';
import { burnVerificationTime, hashPassword, isCommonPassword, needsRehash, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse battery stapl')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('never truncates: a long password differs from its prefix', async () => {
    const long = 'x'.repeat(100) + 'tail';
    const stored = await hashPassword(long);
    expect(await verifyPassword(stored, 'x'.repeat(100))).toBe(false);
    expect(await verifyPassword(stored, long)).toBe(true);
  });

  it('flags hashes made with weaker parameters', () => {
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$abc$def')).toBe(true);
    expect(needsRehash('$2b$10$bcrypt')).toBe(true);
  });

  it('treats a garbage hash as a mismatch, not an error', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    await expect(burnVerificationTime('anything')).resolves.toBeUndefined();
  });

  it('knows common and breached passwords, case-insensitively', () => {
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('PassWord')).toBe(true);
    expect(isCommonPassword('12345678')).toBe(true);
    expect(isCommonPassword('plum-orbit-cactus-917')).toBe(false);
  });
});

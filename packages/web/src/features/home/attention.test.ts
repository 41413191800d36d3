import { describe, expect, it } from 'vitest';
import { attentionItems } from './HomePage';

const user = { full_name: 'Ada', recovery_email: 'ada@backup.test', recovery_email_verified: true, two_factor_method: 'totp' as const };

describe('what needs attention on the home page', () => {
  it('nothing for a set-up account', () => {
    expect(attentionItems(user)).toEqual([]);
    expect(attentionItems(null)).toEqual([]);
  });

  it('a missing or unverified recovery email, and two-step verification off', () => {
    expect(attentionItems({ ...user, recovery_email: null })).toEqual(['noRecoveryEmail']);
    expect(attentionItems({ ...user, recovery_email_verified: false })).toEqual(['recoveryUnverified']);
    expect(attentionItems({ ...user, two_factor_method: null })).toEqual(['noTwoStep']);
    expect(attentionItems({ full_name: 'New', recovery_email: null, two_factor_method: null })).toEqual(['noRecoveryEmail', 'noTwoStep']);
  });
});

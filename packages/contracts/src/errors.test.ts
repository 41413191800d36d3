import { describe, expect, it } from 'vitest';
import { messages, profileMessages } from './api/auth';
import { errorCatalogue, validationCodeOf } from './errors';
import { accountErrors } from './errors/account';
import { apiKeyErrors } from './errors/api-keys';
import { authErrors } from './errors/auth';
import { billingErrors } from './errors/billing';
import { walletErrors } from './errors/wallet';
import { payoutErrors } from './errors/payouts';
import { socialErrors } from './errors/social';
import { auditErrors } from './errors/audit';
import { commonErrors } from './errors/common';
import { notificationErrors } from './errors/notifications';
import { oauthErrors } from './errors/oauth';
import { organizationErrors } from './errors/organizations';
import { companySsoErrors } from './errors/company-sso';
import { egressErrors } from './errors/egress';
import { moderatorErrors } from './errors/moderators';
import { adminErrors } from './errors/admin';

describe('error catalogues per module', () => {
  const modules = [commonErrors, authErrors, accountErrors, apiKeyErrors, notificationErrors, billingErrors, oauthErrors, walletErrors, socialErrors, organizationErrors, auditErrors, payoutErrors, companySsoErrors, moderatorErrors, egressErrors, adminErrors];

  it('combines every module once: no code is declared by two modules', () => {
    const codes = modules.flatMap((module) => Object.keys(module));
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
    expect(Object.keys(errorCatalogue).sort()).toEqual([...codes].sort());
  });

  it("keeps the spec's numbered codes and words", () => {
    expect(errorCatalogue['7014'].message).toBe('A Locker account for this email exists. Cancel the current plan or use another email to register the business plan');
    expect(errorCatalogue['auth.email_exists'].message).toBe('email already exists');
    expect(errorCatalogue.rate_limited).toEqual({ status: 429, message: 'Too many requests. Try again in {second} seconds' });
  });

  it('codes every request schema message, and nothing else', () => {
    for (const [key, message] of Object.entries(messages)) expect(validationCodeOf(message)).toBe(`validation.${key}`);
    for (const [key, message] of Object.entries(profileMessages)) expect(validationCodeOf(message)).toBe(`account.validation.${key}`);
    expect(validationCodeOf('Invalid input: expected string, received undefined')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { messages, profileMessages } from './auth/schemas';
import { errorCatalogue, validationCodeOf } from './errors';
import { accountErrors } from './account/errors';
import { apiKeyErrors } from './api-keys/errors';
import { authErrors } from './auth/errors';
import { billingErrors } from './billing/errors';
import { walletErrors } from './wallet/errors';
import { payoutErrors } from './wallet/payout-errors';
import { socialErrors } from './federation/errors';
import { auditErrors } from './audit/errors';
import { commonErrors } from './common-errors';
import { notificationErrors } from './notifications/errors';
import { oauthErrors } from './oauth/errors';
import { organizationErrors } from './organizations/errors';
import { companySsoErrors } from './company-sso/errors';
import { egressErrors } from './egress-errors';
import { moderatorErrors } from './moderators/errors';
import { adminErrors } from './operators/errors';

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

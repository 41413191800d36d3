import { findPlan } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { billingCopy } from './mail';

/** The spec's trial: 14 days for premium, family and business. */
const SPEC_TRIAL_DAYS = 14;

describe('the business trial mail', () => {
  it('gives the plan’s number of days, the same in English and Vietnamese, and the spec’s', () => {
    const days = findPlan('pwdmanager.business')!.trialDays;
    const vars = { company: 'Acme', email: 'boss@acme.test', date: '1 Jan 2027', days };
    const numbersIn = (lines: string[]) => lines.join(' ').match(/\d+(?=[- ](?:day|ngày))/g);
    expect(numbersIn(billingCopy('en').businessTrial(vars).lines)).toEqual([String(SPEC_TRIAL_DAYS)]);
    expect(numbersIn(billingCopy('vi').businessTrial(vars).lines)).toEqual([String(SPEC_TRIAL_DAYS)]);
    // The words follow the number they are given, in both languages.
    expect(billingCopy('en').businessTrial({ ...vars, days: 30 }).lines[0]).toContain('30-day');
    expect(billingCopy('vi').businessTrial({ ...vars, days: 30 }).lines[0]).toContain('30 ngày');
  });
});

import { z } from 'zod';
import type { TwoFactorMethod } from '@portal/contracts';
import { recoveryCode, verificationCode } from '../../lib/validators';
import { messageKey } from './form-errors';

/**
 * The password, and the second factor when two-step verification is on, that the actions
 * changing how one signs in ask for (contracts account/schemas.ts `secondFactor`): a current
 * code, or one of the recovery codes instead.
 */
export interface SecondFactorValues {
  password: string;
  /** Which of the two the user is giving. */
  factor: 'code' | 'recovery';
  code: string;
  recovery_code: string;
}

export const secondFactorDefaults: SecondFactorValues = { password: '', factor: 'code', code: '', recovery_code: '' };

export const secondFactorShape = {
  password: z.string(),
  factor: z.enum(['code', 'recovery']),
  code: z.string(),
  recovery_code: z.string(),
};


/** The rules, for a zod `superRefine` of a form holding SecondFactorValues. */
export function checkSecondFactor(values: SecondFactorValues, method: TwoFactorMethod | null | undefined, ctx: z.RefinementCtx): void {
  if (!values.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.passwordRequired' });
  if (!method) return;
  const malformed = values.factor === 'code' ? verificationCode(values.code) : null;
  if (malformed) ctx.addIssue({ code: 'custom', path: ['code'], message: messageKey(malformed.key, malformed.params) });
  if (values.factor === 'recovery' && recoveryCode(values.recovery_code)) {
    ctx.addIssue({ code: 'custom', path: ['recovery_code'], message: 'mfa.secondFactor.recoveryCodeInvalid' });
  }
}

/** What the request carries: the password, plus exactly one factor when two-step is on. */
export function secondFactorBody(
  values: SecondFactorValues,
  method: TwoFactorMethod | null | undefined,
): { password: string; code?: string; recovery_code?: string } {
  if (!method) return { password: values.password };
  return values.factor === 'code'
    ? { password: values.password, code: values.code.trim() }
    : { password: values.password, recovery_code: values.recovery_code.trim().toUpperCase() };
}

export const secondFactorFields = ['password', 'code', 'recovery_code'] as const;

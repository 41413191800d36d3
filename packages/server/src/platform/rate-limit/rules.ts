import { createHash } from 'node:crypto';
import type { Rule } from './types';

/** A rule with the name that starts its keys, so two rules never share a counter. */
export interface NamedRule extends Rule {
  readonly name: string;
}

/**
 * The limits of the credential endpoints. Per IP catches one machine trying many accounts;
 * per account catches many machines trying one account.
 */
export const limits = {
  /** Sign-in attempts from one IP, successful or not. */
  signInPerIp: { name: 'signin:ip', limit: 50, windowSeconds: 10 * 60 },
  /**
   * Failed sign-ins on one account: a captcha from CAPTCHA_AFTER_FAILURES on, blocked after
   * the limit until the window ends. Reset after a successful sign-in.
   */
  signInFailuresPerAccount: { name: 'signin:fail', limit: 10, windowSeconds: 15 * 60 },
  signUpPerIp: { name: 'signup:ip', limit: 10, windowSeconds: 60 * 60 },
  /** Mailed codes and links (sign-in code, reset, activation resend, email change) per account. */
  codeSendPerAccount: { name: 'code:send', limit: 5, windowSeconds: 15 * 60 },
  /** ...and not more than one every 30 seconds. */
  codeSendInterval: { name: 'code:gap', limit: 1, windowSeconds: 30 },
  /** Mailed codes from one IP across accounts, so one client cannot mail-bomb many inboxes. */
  codeSendPerIp: { name: 'code:send:ip', limit: 30, windowSeconds: 15 * 60 },
  /**
   * Wrong recovery emails for one account (as typed, known or not): a captcha from
   * CAPTCHA_AFTER_FAILURES on, refused after the limit. Reset when the right one is given.
   */
  recoveryFailuresPerAccount: { name: 'recovery:fail', limit: 10, windowSeconds: 15 * 60 },
  /** Forgot-password and recovery requests from one IP. */
  recoveryPerIp: { name: 'recovery:ip', limit: 20, windowSeconds: 15 * 60 },
  /** Username changes tried on one account (each one says whether the name is taken). */
  usernameChecksPerAccount: { name: 'username:check', limit: 10, windowSeconds: 60 * 60 },
  /** ...and from one address across accounts. */
  usernameChecksPerIp: { name: 'username:check:ip', limit: 30, windowSeconds: 60 * 60 },
  /** Wrong guesses at one issued code (6 digits: 5 guesses give a 1 in 200,000 chance). */
  codeAttempts: { name: 'code:try', limit: 5, windowSeconds: 10 * 60 },
} as const satisfies Record<string, NamedRule>;

/** Failed sign-ins (or recovery emails) on one account after which the next attempt must carry a captcha. */
export const CAPTCHA_AFTER_FAILURES = 3;

/**
 * The counter key of a rule for one subject (an IP, an account id, an email). The subject is
 * trimmed, lower-cased (emails and IPv6 are case-insensitive) and hashed: the shared store
 * then holds no addresses, and every key has the same short length.
 */
export function rateKey(rule: NamedRule, subject: string): string {
  const digest = createHash('sha256').update(subject.trim().toLowerCase()).digest('base64url').slice(0, 22);
  return `${rule.name}:${digest}`;
}

import { hash } from 'node:crypto';
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
  /**
   * Failed sign-in attempts from one address (password, email code, passkey, second step).
   * Successes are not counted, so many people behind one NAT do not lock each other out.
   */
  signInPerIp: { name: 'signin:ip', limit: 50, windowSeconds: 10 * 60 },
  /**
   * Failed sign-ins on one account (passwords; second steps count apart): a captcha from
   * CAPTCHA_AFTER_FAILURES on; once the limit is spent each further try waits a growing delay
   * (`signin:delay`). Per account and address, refused past the limit until the window ends.
   * Reset after a successful sign-in, and by a completed password reset.
   */
  signInFailuresPerAccount: { name: 'signin:fail', limit: 10, windowSeconds: 15 * 60 },
  /**
   * The growing delay once a failure budget is spent: `limit` is the first wait in seconds,
   * doubling with every further try, `windowSeconds` the longest wait.
   */
  failureDelay: { name: 'signin:delay', limit: 30, windowSeconds: 15 * 60 },
  /** Wrong mailed codes (sign-in, reset, email second step...) per account, across codes: a new code does not reset it. */
  codeFailuresPerAccount: { name: 'code:fail', limit: 10, windowSeconds: 60 * 60 },
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
  /**
   * On-premise discovery lookups from one address (POST .../onpremise/prelogin): each says
   * whether an email is in an organization with its own server, so they are counted, found or not.
   */
  onPremisePerIp: { name: 'onpremise:ip', limit: 30, windowSeconds: 15 * 60 },
  /** Organization invitations mailed (invite and resend) per organization... */
  invitationsPerOrganization: { name: 'org:invite', limit: 50, windowSeconds: 24 * 60 * 60 },
  /** ...and per inviting member, so one admin cannot mail-bomb inboxes. */
  invitationsPerInviter: { name: 'org:invite:user', limit: 20, windowSeconds: 60 * 60 },
  /** Moderator invitations mailed per product client (its back end's calls)... */
  moderatorInvitationsPerProduct: { name: 'mod:invite:client', limit: 500, windowSeconds: 60 * 60 },
  /** ...and per invited email, so no product can flood one inbox. */
  moderatorInvitationsPerEmail: { name: 'mod:invite:email', limit: 10, windowSeconds: 24 * 60 * 60 },
  /** Invitation links (organization and moderator) looked up or claimed for sign-up from one address (public, token-bearing). */
  invitationLinksPerIp: { name: 'org:link:ip', limit: 60, windowSeconds: 15 * 60 },
  /**
   * Company SSO starts from one address (POST /_auth/sso/start): each says whether an identifier
   * or an email domain has SSO, and a SAML start stores a request, so they are counted, found or not.
   */
  companySsoStartPerIp: { name: 'sso:start:ip', limit: 30, windowSeconds: 15 * 60 },
  /** SAML responses posted to an organization's ACS from one address. */
  companySsoAcsPerIp: { name: 'sso:acs:ip', limit: 30, windowSeconds: 15 * 60 },
  /** Domain proofs mailed per organization (to admin@, hostmaster@... of its domains). */
  companySsoProofMailsPerOrganization: { name: 'sso:proofmail:org', limit: 10, windowSeconds: 60 * 60 },
  /** Wrong guesses at one issued code (6 digits: 5 guesses give a 1 in 200,000 chance). */
  codeAttempts: { name: 'code:try', limit: 5, windowSeconds: 10 * 60 },
  /** Wrong device sign-in codes (RFC 8628 user codes) typed on one account. */
  deviceCodeFailuresPerAccount: { name: 'device:fail', limit: 10, windowSeconds: 15 * 60 },
  /**
   * Card tokenizations of the sandbox processor per address: each answers whether a number is
   * valid, so without a limit the endpoint would check stolen card numbers for anyone.
   */
  cardTokensPerIp: { name: 'card:token:ip', limit: 50, windowSeconds: 60 * 60 },
  /** ...and per signed-in account, from any address. */
  cardTokensPerAccount: { name: 'card:token', limit: 10, windowSeconds: 60 * 60 },
  /** Business trials asked for by one signed-in account (each answers whether the company's trial can start)... */
  businessTrialsPerAccount: { name: 'trial:business', limit: 5, windowSeconds: 60 * 60 },
  /** ...and from one address across accounts. */
  businessTrialsPerIp: { name: 'trial:business:ip', limit: 20, windowSeconds: 60 * 60 },
} as const satisfies Record<string, NamedRule>;

/** Failed sign-ins (or recovery emails) on one account after which the next attempt must carry a captcha. */
export const CAPTCHA_AFTER_FAILURES = 3;

/** The growing delay of a spent failure budget, as `signin:delay` sets it. */
export const failureDelay = () => ({ baseSeconds: limits.failureDelay.limit, maxSeconds: limits.failureDelay.windowSeconds });

/**
 * The counter key of a rule for one subject (an IP, an account id, an email). The subject is
 * trimmed, lower-cased (emails and IPv6 are case-insensitive) and hashed: the shared store
 * then holds no addresses, and every key has the same short length.
 */
export function rateKey(rule: NamedRule, subject: string): string {
  const digest = hash('sha256', subject.trim().toLowerCase(), 'base64url').slice(0, 22);
  return `${rule.name}:${digest}`;
}

/** A rule's allowance as RATE_LIMITS sets it. */
export interface LimitOverride {
  limit: number;
  windowSeconds: number;
}

const RULE_NAMES = new Set<string>(Object.values(limits).map((rule) => rule.name));

/**
 * Reads RATE_LIMITS: `name=limit/windowSeconds` pairs separated by commas, e.g.
 * `signin:ip=200/600,signup:ip=20/3600`. Returns the overrides, or what is wrong with them.
 */
export function parseLimitOverrides(text: string): { value: Record<string, LimitOverride> } | { problem: string } {
  const value: Record<string, LimitOverride> = {};
  for (const entry of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    const match = /^([a-z:]+)=(\d{1,7})\/(\d{1,7})$/.exec(entry);
    if (!match) return { problem: `"${entry}" is not name=limit/windowSeconds (e.g. signin:ip=50/600)` };
    const [, name, limit, windowSeconds] = match as unknown as [string, string, string, string];
    if (!RULE_NAMES.has(name)) return { problem: `no limit is named "${name}" (known: ${[...RULE_NAMES].join(', ')})` };
    if (Number(limit) < 1 || Number(windowSeconds) < 1) return { problem: `"${entry}": limit and window must be at least 1` };
    value[name] = { limit: Number(limit), windowSeconds: Number(windowSeconds) };
  }
  return { value };
}

/**
 * Sets this process's allowances from RATE_LIMITS (main.ts, once at start). The rules are
 * shared constants, so every module counting against one sees the configured allowance.
 */
export function applyLimitOverrides(overrides: Record<string, LimitOverride>): void {
  for (const rule of Object.values(limits)) {
    const override = overrides[rule.name];
    if (override) Object.assign(rule as { limit: number; windowSeconds: number }, override);
  }
}

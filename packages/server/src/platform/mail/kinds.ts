import type { BrandId, Language } from '@portal/contracts';
import type { MailContent } from './layout';

/** What each kind of mail needs from its caller. Links are absolute URLs built by the caller. */
export interface MailVarsByKind {
  /** Confirm the address of a new account. */
  activation: { link: string };
  /** Someone tried to register with an address that already has an account. */
  signup_existing: { /** Sign-in page. */ link: string; resetLink: string };
  /** A 6-digit code and a link; both valid `validMinutes` (default 10) and usable once. */
  reset_password: { code: string; link: string; validMinutes?: number };
  /** Notice after a password change; other sessions were signed out. */
  password_changed: { resetLink?: string; supportUrl?: string };
  /** A 6-digit sign-in code. */
  login_code: { code: string; validMinutes?: number };
  /** A code sent to a new address to confirm it. */
  email_change_code: { code: string; newEmail: string; validMinutes?: number };
  /** Anything else worth telling the owner about: a title and a few lines. */
  security_alert: { title: string; lines: string[]; link?: { label: string; url: string } };
}

export type MailKind = keyof MailVarsByKind;
export const mailKinds = [
  'activation',
  'signup_existing',
  'reset_password',
  'password_changed',
  'login_code',
  'email_change_code',
  'security_alert',
] as const satisfies readonly MailKind[];

export type MailVars<K extends MailKind> = {
  lang: Language;
  brand: BrandId;
  /** The recipient's name for the greeting, when known. */
  name?: string;
} & MailVarsByKind[K];

/** One language's wording: a content builder per kind. `brand` is the brand's display name. */
export type Copy = {
  [K in MailKind]: (vars: MailVars<K>, brand: string) => MailContent;
};

export const DEFAULT_CODE_MINUTES = 10;

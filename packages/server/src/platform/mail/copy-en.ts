import { DEFAULT_CODE_MINUTES, type Copy } from './kinds';

const greeting = (name?: string) => ({ kind: 'p' as const, text: name ? `Hi ${name},` : 'Hi,' });
const signOff = (brand: string) => `— The ${brand} team`;
const footer = (brand: string) => `This is an automated message from ${brand}. Please do not reply to this email.`;
const neverShare = (brand: string) => `Never share this code with anyone. ${brand} staff will never ask you for it.`;

export const en: Copy = {
  activation: ({ name, link }, brand) => ({
    subject: `Activate your ${brand} account`,
    heading: 'Confirm your email address',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Thanks for signing up for ${brand}. Confirm your email address to activate your account:` },
      { kind: 'button', label: 'Activate account', url: link },
      { kind: 'note', text: "If you didn't create this account, you can ignore this email." },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  signup_existing: ({ name, link, resetLink }, brand) => ({
    subject: `Someone tried to sign up to ${brand} with your email`,
    heading: 'You already have an account',
    blocks: [
      greeting(name),
      {
        kind: 'p',
        text: `Someone (hopefully you) tried to create a ${brand} account with this email address, but this address already has an account.`,
      },
      { kind: 'button', label: 'Sign in', url: link },
      { kind: 'p', text: 'Forgot your password? You can reset it here:' },
      { kind: 'link', label: 'Reset password', url: resetLink },
      { kind: 'note', text: "If this wasn't you, you can ignore this email. Nothing has changed in your account." },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  reset_password: ({ name, code, link, validMinutes = DEFAULT_CODE_MINUTES }, brand) => ({
    subject: `Reset your ${brand} password`,
    heading: 'Reset your password',
    blocks: [
      greeting(name),
      { kind: 'p', text: `We received a request to reset the password of your ${brand} account. Enter this code:` },
      { kind: 'code', code },
      { kind: 'p', text: 'Or open this link:' },
      { kind: 'button', label: 'Reset password', url: link },
      { kind: 'p', text: `The code and the link are valid for ${validMinutes} minutes and can be used once.` },
      { kind: 'note', text: "If you didn't ask to reset your password, ignore this email. Your password stays the same." },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  password_changed: ({ name, resetLink, supportUrl }, brand) => ({
    subject: `Your ${brand} password was changed`,
    heading: 'Your password was changed',
    blocks: [
      greeting(name),
      {
        kind: 'p',
        text: `The password of your ${brand} account was just changed. For your safety, all other sessions have been signed out.`,
      },
      {
        kind: 'p',
        text: "If you didn't make this change, reset your password right away and contact our support team.",
      },
      ...(resetLink ? [{ kind: 'link' as const, label: 'Reset password', url: resetLink }] : []),
      ...(supportUrl ? [{ kind: 'link' as const, label: 'Contact support', url: supportUrl }] : []),
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  login_code: ({ name, code, validMinutes = DEFAULT_CODE_MINUTES }, brand) => ({
    subject: `Your ${brand} sign-in code`,
    heading: 'Your sign-in code',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Use this code to sign in to ${brand}:` },
      { kind: 'code', code },
      { kind: 'p', text: `The code is valid for ${validMinutes} minutes. ${neverShare(brand)}` },
      { kind: 'note', text: "If you didn't try to sign in, you can ignore this email." },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  email_change_code: ({ name, code, newEmail, validMinutes = DEFAULT_CODE_MINUTES }, brand) => ({
    subject: `Confirm your new ${brand} email address`,
    heading: 'Confirm your new email address',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Use this code to confirm ${newEmail} as the email address of your ${brand} account:` },
      { kind: 'code', code },
      { kind: 'p', text: `The code is valid for ${validMinutes} minutes. ${neverShare(brand)}` },
      { kind: 'note', text: "If you didn't ask for this change, ignore this email. Your email address stays the same." },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  security_alert: ({ name, title, lines, link }, brand) => ({
    subject: `${brand}: ${title}`,
    heading: title,
    blocks: [
      greeting(name),
      ...lines.map((text) => ({ kind: 'p' as const, text })),
      ...(link ? [{ kind: 'button' as const, label: link.label, url: link.url }] : []),
      { kind: 'note', text: `This is a security notice about your ${brand} account.` },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),
};

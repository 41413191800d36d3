import { describe, expect, it } from 'vitest';
import { catalogueTexts } from './catalogue-texts';
import accountEn from './parts/account.en';
import accountVi from './parts/account.vi';
import adminEn from './parts/admin.en';
import adminVi from './parts/admin.vi';
import errorsEn from './parts/errors.en';
import errorsVi from './parts/errors.vi';
import pagesEn from './parts/pages.en';
import pagesVi from './parts/pages.vi';
import en from './parts/public.en';
import vi from './parts/public.vi';
import securityEn from './parts/security.en';
import securityVi from './parts/security.vi';

/**
 * One voice for what a form says about a value it refuses: the spec's own words stay as the spec
 * has them; every other field message says what to do, in a short imperative ("Enter …",
 * "Choose …" / "Nhập …", "Chọn …"), never "Please" / "Vui lòng" or "Hãy", and a code's or a
 * field's figures are "digits" (never "numbers").
 */

const all = (...parts: unknown[][]) => new Map(parts.flat().flatMap((file) => [...catalogueTexts(file)]));
const english = all(en, pagesEn, errorsEn, accountEn, adminEn, securityEn);
const vietnamese = all(vi, pagesVi, errorsVi, accountVi, adminVi, securityVi);

/** Field messages in the spec's words (its validation rules and error catalogue): English as the spec says. */
const SPEC_WORDED = new Set([
  'validation.blank',
  'validation.emailRequired',
  'validation.emailInvalid',
  'validation.identifierInvalid',
  'validation.confirmMismatch',
  'validation.recoveryCodeFormat',
  // The spec's "… not valid" form for a value checked and refused.
  'validation.recoveryCode',
  'errors.auth.enter_valid_email',
]);

/** Refusals that are not about the value's form (it is taken), said as a fact. */
const NOT_A_FORM_RULE = new Set(['account.validation.usernameTaken']);

/** The form and field messages: every request schema's and profile field's, and the catalogue's refusals of a typed or chosen value. */
const FIELD_MESSAGES = [
  ...[...english.keys()].filter((path) => path.startsWith('validation.') || path.startsWith('account.validation.')),
  'auth.loginSso.identifierRequired',
  'account.avatar.invalidType',
  'account.avatar.tooLarge',
  'account.email.recovery.mustDiffer',
  'apiKeys.dialog.scopesRequired',
  'apiKeys.dialog.expiresRange',
  'admin.operators.apiKeys.scopesRequired',
  'admin.operators.emailInvalid',
  'security.password.mustDiffer',
  ...[
    'auth.password_too_common',
    'auth.password_same_as_old',
    'auth.captcha_required',
    'auth.current_password_required',
    'auth.enter_valid_email',
    'account.confirmation_mismatch',
    'account.avatar_invalid',
    'account.recovery_same_as_email',
    'wallet.amount_invalid',
    'wallet.deposit_amount_invalid',
    'wallet.address_invalid',
    'wallet.partner_recipient_invalid',
    'audit.date_invalid',
    'audit.date_range_invalid',
    'audit.email_invalid',
    'egress.url_refused',
    'sso.identifier_format',
    'sso.issuer_invalid',
    'sso.client_id_required',
    'sso.client_secret_required',
    'sso.metadata_invalid',
    'sso.domain_invalid',
    'sso.proof_address_invalid',
    'admin.reason_required',
    'admin.logo_invalid',
  ].map((code) => `errors.${code}`),
].filter((path) => !NOT_A_FORM_RULE.has(path));

const ENGLISH_VERBS = ['Enter', 'Choose', 'Type', 'Accept', 'Complete'];
const VIETNAMESE_VERBS = ['Nhập', 'Chọn', 'Đồng ý', 'Hoàn thành'];
const startsWithOneOf = (text: string, verbs: string[]) => verbs.some((verb) => text.startsWith(`${verb} `));

describe('the voice of field messages', () => {
  it('knows every message it checks, in both languages', () => {
    expect(FIELD_MESSAGES.filter((path) => !english.has(path) || !vietnamese.has(path))).toEqual([]);
    expect(FIELD_MESSAGES.length).toBeGreaterThan(40);
  });

  it('says in English what to do: an imperative, no "Please"', () => {
    const off = FIELD_MESSAGES.filter((path) => !SPEC_WORDED.has(path)).filter((path) => !startsWithOneOf(english.get(path)!, ENGLISH_VERBS));
    expect(off.map((path) => `${path}: ${english.get(path)}`)).toEqual([]);
    expect(FIELD_MESSAGES.filter((path) => /\bplease\b/i.test(english.get(path)!))).toEqual([]);
  });

  it('says in Vietnamese what to do: "Nhập …", "Chọn …", never "Vui lòng" or "Hãy"', () => {
    const off = FIELD_MESSAGES.filter((path) => !SPEC_WORDED.has(path)).filter((path) => !startsWithOneOf(vietnamese.get(path)!, VIETNAMESE_VERBS));
    expect(off.map((path) => `${path}: ${vietnamese.get(path)}`)).toEqual([]);
    const pleading = FIELD_MESSAGES.filter((path) => /^(vui lòng|hãy)\b/iu.test(vietnamese.get(path)!) || /vui lòng/iu.test(vietnamese.get(path)!));
    expect(pleading.map((path) => `${path}: ${vietnamese.get(path)}`)).toEqual([]);
  });

  it('calls figures digits, not numbers', () => {
    const numbers = FIELD_MESSAGES.filter((path) => /\bnumbers\b/i.test(english.get(path)!));
    expect(numbers.map((path) => `${path}: ${english.get(path)}`)).toEqual([]);
  });

  it('never pleads in any message the spec does not word: no "Please" / "Vui lòng"', () => {
    // The spec's 401 text, and the busy loader's label (a status line, not a message).
    const exempt = new Set(['errors.unauthorized', 'app.busy.label']);
    const pleadingEnglish = [...english].filter(([path, text]) => !exempt.has(path) && /\bplease\b/i.test(text));
    const pleadingVietnamese = [...vietnamese].filter(([path, text]) => path !== 'app.busy.label' && /vui lòng/iu.test(text));
    expect([...pleadingEnglish, ...pleadingVietnamese].map(([path, text]) => `${path}: ${text}`)).toEqual([]);
  });
});

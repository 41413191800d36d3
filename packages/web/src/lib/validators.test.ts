import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailSchema, forgotVerifyCodeRequestSchema, identifierSchema, messages, newPasswordSchema, PASSWORD_MIN_LENGTH, recoveryCodeSchema } from '@portal/contracts';
import en from '../i18n/app.en.json';
import vi from '../i18n/app.vi.json';
import { acceptTerms, confirmPassword, email, identifier, newPassword, password, recoveryCode, recoveryVerificationCode, required, validate, verificationCode, type ValidationMessage } from './validators';

/** A rule's message as shown in `catalogue`. */
function shown(message: ValidationMessage | null, catalogue: typeof en = en): string | null {
  if (!message) return null;
  const template = catalogue.validation[message.key.replace('validation.', '') as keyof typeof en.validation];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(message.params?.[name]));
}

/** The server's answer for the same value: its message, or null when it passes. */
function server(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: string): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : result.error!.issues[0]!.message;
}

describe('the catalogue says what the server says (the spec validation rules)', () => {
  it.each([
    ['blank', messages.blank],
    ['emailRequired', messages.emailRequired],
    ['emailInvalid', messages.emailInvalid],
    ['identifierInvalid', messages.identifierInvalid],
    ['passwordRequired', messages.passwordRequired],
    ['confirmMismatch', messages.confirmMismatch],
    ['termsRequired', messages.termsRequired],
  ] as const)('validation.%s', (key, words) => {
    expect(en.validation[key]).toBe(words);
  });

  it('fills the length in the password and code messages', () => {
    expect(shown(newPassword('short'))).toBe(messages.passwordTooShort);
    expect(shown(verificationCode('12'))).toBe(messages.codeFormat);
  });

  it("checks the password recovery's code by the spec's rule and words: 6 digits, as the server does", () => {
    expect(messages.recoveryCodeFormat).toBe('Recovery code is 6 digits');
    const serverSays = (code: string) => server(forgotVerifyCodeRequestSchema.shape.code, code);
    for (const code of ['12345', '1234567', '12345a', '١٢٣٤٥٦', '']) {
      expect(shown(recoveryVerificationCode(code))).toBe(messages.recoveryCodeFormat);
      expect(serverSays(code)).toBe(messages.recoveryCodeFormat);
    }
    expect(recoveryVerificationCode(' 123456 ')).toBeNull();
    expect(serverSays(' 123456 ')).toBeNull();
    expect(shown(recoveryVerificationCode('1'), vi as typeof en)).toBe('Mã khôi phục gồm 6 chữ số');
  });
});

describe('rules', () => {
  it('required: blank or spaces only', () => {
    expect(shown(required(''))).toBe('This field may not be blank.');
    expect(shown(required('   '))).toBe('This field may not be blank.');
    expect(required('Ada')).toBeNull();
  });

  it('email: required, then a valid address', () => {
    expect(shown(email(''))).toBe('The email field is required');
    expect(shown(email('ada@'))).toBe('Email address is not valid');
    expect(shown(email('ada@example'))).toBe('Email address is not valid');
    expect(email(' ada@example.com ')).toBeNull();
  });

  it('identifier: required, no spaces inside', () => {
    expect(shown(identifier(' '))).toBe('The email field is required');
    expect(shown(identifier('ada lovelace'))).toBe('Email or username not valid');
    expect(identifier('ada')).toBeNull();
    expect(identifier('ada@example.com')).toBeNull();
  });

  it('passwords: present to sign in; 8 or more characters, never trimmed, to choose', () => {
    expect(shown(password(''))).toBe('Enter a password');
    expect(password(' ')).toBeNull();
    expect(shown(newPassword(''))).toBe('Enter a password');
    expect(shown(newPassword('1234567'))).toBe(`Enter a password of at least ${PASSWORD_MIN_LENGTH} characters`);
    expect(newPassword('        ')).toBeNull();
  });

  it('confirm password: present and the same', () => {
    expect(shown(confirmPassword('Secret-123')(''))).toBe('This field may not be blank.');
    expect(shown(confirmPassword('Secret-123')('Secret-124'))).toBe('Confirm password is not match!');
    expect(confirmPassword('Secret-123')('Secret-123')).toBeNull();
  });

  it('terms and code', () => {
    expect(shown(acceptTerms(false))).toBe('Accept the Terms of Service and Privacy Policy');
    expect(acceptTerms(true)).toBeNull();
    expect(shown(verificationCode('12a456'))).toBe('Enter the 6-digit code');
    expect(verificationCode('123456')).toBeNull();
  });

  it('reads in Vietnamese from the same keys', () => {
    expect(shown(email(''), vi)).toBe('Nhập email');
    expect(shown(newPassword('short'), vi)).toBe(`Nhập mật khẩu có ít nhất ${PASSWORD_MIN_LENGTH} ký tự`);
    expect(shown(confirmPassword('a')('b'), vi)).toBe('Mật khẩu xác nhận không khớp!');
  });

  it('validate: the failing fields and whether all passed', () => {
    const outcome = validate({ name: '', mail: 'ada@example.com' }, { name: required, mail: email });
    expect(outcome.valid).toBe(false);
    expect(Object.keys(outcome.errors)).toEqual(['name']);
  });
});

describe('the same answers as the server schemas (contracts)', () => {
  const text = fc.oneof(
    fc.string(),
    fc.emailAddress(),
    fc.constantFrom('', ' ', 'a b', 'ada@', '@x.io', 'a@b.c', ' ada@example.com ', 'x'.repeat(255), `${'x'.repeat(250)}@a.io`),
  );

  it('email', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(shown(email(value))).toBe(server(emailSchema, value));
      }),
    );
  });

  it('identifier', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(shown(identifier(value))).toBe(server(identifierSchema, value));
      }),
    );
  });

  it('new password', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 140 }), fc.constantFrom('', '1234567', '12345678')), (value) => {
        expect(shown(newPassword(value))).toBe(server(newPasswordSchema, value));
      }),
    );
  });

  it('recovery code', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 14 }), fc.constantFrom('abcde-12345', ' ABCDE12345 ', 'ABCDE_12345', 'abcd-12345', 'ABCDE-123456')), (value) => {
        expect(shown(recoveryCode(value))).toBe(server(recoveryCodeSchema, value));
      }),
    );
  });
});

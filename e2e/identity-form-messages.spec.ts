import { setLanguage } from './support/accounts';
import { chooseLanguage, snap } from './support/helpers';
import { expect, test } from './support/mail';

/**
 * Every message of the sign-in, sign-up and recovery forms, in English and in Vietnamese, as the
 * browser shows it.
 */

test.describe('form messages in English and Vietnamese', () => {
  test('the first sign-in step', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('The email field is required')).toBeVisible();
    await chooseLanguage(page, 'vi');
    // The message on screen follows the language.
    await expect(page.getByText('Nhập email', { exact: true })).toBeVisible();
    await snap(page, 'identity-login-required-vi');
    await page.getByLabel('Email hoặc tên người dùng').fill('two words');
    await page.getByRole('button', { name: 'Tiếp tục' }).click();
    await expect(page.getByText('Email hoặc tên người dùng không hợp lệ')).toBeVisible();
    await chooseLanguage(page, 'en');
    await expect(page.getByText('Email or username not valid')).toBeVisible();
    await snap(page, 'identity-login-invalid-en');
  });

  test('the password step', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email or username').fill('someone@example.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Enter a password')).toBeVisible();
    await chooseLanguage(page, 'vi');
    await expect(page.getByText('Nhập mật khẩu của bạn')).toBeVisible();
    await page.getByLabel('Mật khẩu', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Email hoặc mật khẩu không đúng');
    await snap(page, 'identity-login-password-error-vi');
  });

  for (const language of ['en', 'vi'] as const) {
    test(`sign-up (${language})`, async ({ page, context, portal }) => {
      const text =
        language === 'en'
          ? {
              submit: 'Create account',
              fullName: 'Full name',
              email: 'Email',
              password: 'Password',
              blank: 'This field may not be blank.',
              emailRequired: 'The email field is required',
              emailInvalid: 'Email address is not valid',
              passwordRequired: 'Enter a password',
              passwordShort: 'Enter a password of at least 8 characters',
              terms: 'Accept the Terms of Service and Privacy Policy',
            }
          : {
              submit: 'Tạo tài khoản',
              fullName: 'Họ và tên',
              email: 'Email',
              password: 'Mật khẩu',
              blank: 'Trường này không được để trống.',
              emailRequired: 'Nhập email',
              emailInvalid: 'Địa chỉ email không hợp lệ',
              passwordRequired: 'Nhập mật khẩu của bạn',
              passwordShort: 'Nhập mật khẩu có ít nhất 8 ký tự',
              terms: 'Đồng ý với Điều khoản dịch vụ và Chính sách quyền riêng tư',
            };
      await setLanguage(context, portal, language);
      await page.goto('/register');
      // The form's lazy parts (the captcha widget, the language's texts) settle first: a click
      // while they swap in was once lost under CI load, and no message showed.
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: text.submit }).click();
      for (const message of [text.blank, text.emailRequired, text.passwordRequired, text.terms]) await expect(page.getByText(message, { exact: true })).toBeVisible();
      await snap(page, `identity-register-required-${language}`);
      await page.getByLabel(text.email, { exact: true }).fill('not-an-email');
      await page.getByLabel(text.password, { exact: true }).fill('short');
      await expect(page.getByText(text.emailInvalid)).toBeVisible();
      await expect(page.getByText(text.passwordShort)).toBeVisible();
      await page.getByLabel(text.fullName).fill('Ada');
      await expect(page.getByText(text.blank)).toHaveCount(0);
      await snap(page, `identity-register-invalid-${language}`);
    });

    test(`recovery (${language})`, async ({ page, context, portal }) => {
      const text =
        language === 'en'
          ? { next: 'Continue', required: 'The email field is required', send: 'Send code', invalid: 'Email address is not valid', email: 'Recovery email' }
          : { next: 'Tiếp tục', required: 'Nhập email', send: 'Gửi mã', invalid: 'Địa chỉ email không hợp lệ', email: 'Email khôi phục' };
      await setLanguage(context, portal, language);
      await page.goto('/forgot');
      await page.getByRole('button', { name: text.next }).click();
      await expect(page.getByText(text.required, { exact: true })).toBeVisible();
      await page.locator('input[name="username"]').fill('someone');
      await page.getByRole('button', { name: text.next }).click();
      await page.getByLabel(text.email).fill('nope@');
      await page.getByRole('button', { name: text.send }).click();
      await expect(page.getByText(text.invalid)).toBeVisible();
      await snap(page, `identity-forgot-invalid-${language}`);
    });
  }
});

import { signInThroughPages } from './support/accounts';
import { chooseLanguage, pageErrors, snap } from './support/helpers';
import { codeIn, createActivatedAccount, expect, linkIn, test, uniqueEmail } from './support/mail';

/**
 * Password recovery in a real browser against the real server, its mail caught by a real SMTP
 * peer (support/mail.ts): by mailed code (with the captcha after wrong recovery emails) and by
 * mailed link, each ending in a sign-in with the new password.
 */

const PASSWORD = 'Correct-Horse-42-battery';
const NEW_PASSWORD = 'Staple-Lantern-77-orbit';

test.describe('password recovery', () => {
  test('by mailed code: forgot → code → new password; the old one is refused', async ({ page, portal, request }) => {
    test.setTimeout(90_000);
    const errors = pageErrors(page);
    const email = uniqueEmail('forgot');
    await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Katherine Johnson' });

    await page.goto('/login');
    await page.getByLabel('Email or username').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('link', { name: 'Forgot password?' }).click();

    // Step 1: the account and the way to receive a code.
    await expect(page).toHaveURL(/\/forgot$/);
    await expect(page.getByLabel('Email or username')).toHaveValue(email);
    await expect(page.getByRole('radio', { name: 'Receive a code by email' })).toBeChecked();
    await snap(page, 'identity-forgot-1-identify');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Step 2: the full recovery email; a wrong one shows the first and last parts of the right one.
    await expect(page.getByRole('heading', { name: 'Verify your recovery email' })).toBeVisible();
    await page.getByLabel('Recovery email').fill('someone.else@example.test');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText(/^The recovery email does not match e2\*\*\*.@e\*\*\*\.test$/)).toBeVisible();
    await expect(page.getByText('The hint shows the first and last parts of the right address.')).toBeVisible();
    await snap(page, 'identity-forgot-2-mismatch');
    await page.getByLabel('Recovery email').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();

    // Step 3: the 6-digit code from the mail.
    await expect(page.getByRole('heading', { name: 'Enter the code' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Send a new code in \d+ s/ })).toBeDisabled();
    const mail = await portal.waitForMail(email, { subject: /reset/i });
    const code = codeIn(mail);
    const wrong = code === '000000' ? '111111' : '000000';
    // The spec's validation rules: the recovery code is 6 digits, said in those words before the server is asked.
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Recovery code is 6 digits')).toBeVisible();
    await page.getByTestId('recovery-code').locator('input').first().click();
    await page.keyboard.type(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Verification code incorrect or expired')).toBeVisible();
    await snap(page, 'identity-forgot-3-code-wrong');
    await page.getByTestId('recovery-code').locator('input').first().click();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace');
    await page.getByTestId('recovery-code').locator('input').first().click();
    await page.keyboard.type(code);
    await page.getByRole('button', { name: 'Verify' }).click();

    // Step 4: the new password; the confirmation must match (checked here first, in both languages).
    await expect(page.getByRole('heading', { name: 'Choose a new password' }).first()).toBeVisible();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByText('Confirm password is not match!')).toBeVisible();
    await chooseLanguage(page, 'vi');
    await expect(page.getByText('Mật khẩu xác nhận không khớp!')).toBeVisible();
    await snap(page, 'identity-forgot-4-mismatch-vi');
    await chooseLanguage(page, 'en');
    // The same password as before is refused by the server.
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByText('Choose a new password different from the old one')).toBeVisible();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await snap(page, 'identity-forgot-4-new-password');
    await page.getByRole('button', { name: 'Reset password' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Your password has been reset. Sign in with your new password.')).toBeVisible();
    await snap(page, 'identity-forgot-done');

    // The mailed link was replaced by the code's token: it no longer works.
    await page.goto(linkIn(mail, '/reset-pwd/'));
    await expect(page.getByText('This reset link is invalid or has expired')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request a new reset' })).toHaveAttribute('href', '/forgot');

    await signInThroughPages(page, email, PASSWORD);
    await expect(page.getByTestId('login-error')).toHaveText('Email or password not valid');
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${portal.platformUrl}/`);
    await expect(page.getByRole('heading', { name: 'Welcome, Katherine Johnson' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('three wrong recovery emails bring the captcha; solved, the code is sent', async ({ page, portal, request }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail('recover-captcha');
    await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Mary Jackson' });
    await page.goto('/forgot');
    await page.getByLabel('Email or username').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.getByLabel('Recovery email').fill(`wrong-${attempt}@example.test`);
      const answered = page.waitForResponse((response) => response.url().endsWith('/forgot/verify-email'));
      await page.getByRole('button', { name: 'Send code' }).click();
      await answered;
      await expect(page.getByText(/^The recovery email does not match/)).toBeVisible();
      await expect(page.getByTestId('captcha')).toHaveCount(attempt < 3 ? 0 : 1);
    }
    await expect(page.getByText('For your security, complete the check below, then send the code again.')).toBeVisible();
    await expect(page.locator('altcha-widget')).toBeVisible();
    await snap(page, 'identity-forgot-captcha');

    // Opened again, a send without an answer is refused with "Complete the captcha", which goes
    // once the captcha it brings says Verified (not at the next send).
    await page.reload();
    await page.getByLabel('Email or username').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Recovery email').fill(email);
    const refused = page.waitForResponse((response) => response.url().endsWith('/forgot/verify-email'));
    await page.getByRole('button', { name: 'Send code' }).click();
    expect(((await (await refused).json()) as { code: string }).code).toBe('auth.captcha_required');
    await expect(page.getByTestId('captcha').getByText('Verified')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Complete the captcha')).toHaveCount(0);

    await page.getByLabel('Recovery email').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { name: 'Enter the code' })).toBeVisible({ timeout: 30_000 });
    expect(codeIn(await portal.waitForMail(email, { subject: /reset/i }))).toMatch(/^\d{6}$/);
  });

  test('by mailed link: /reset-pwd/:token checks the link, then sets the password', async ({ page, portal, request }) => {
    const email = uniqueEmail('resetlink');
    await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Mary Jackson' });
    const asked = await request.post(`${portal.platformUrl}/v3/sso/password/forgot/verify-email`, { data: { identifier: email, email } });
    expect(asked.status()).toBe(204);
    const link = linkIn(await portal.waitForMail(email, { subject: /reset/i }), '/reset-pwd/');

    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await snap(page, 'identity-reset-link-form');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.goto(link);
    await expect(page.getByText('This reset link is invalid or has expired')).toBeVisible();
    await snap(page, 'identity-reset-link-used');

    await signInThroughPages(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL(`${portal.platformUrl}/`);
  });
});

import { signInThroughPages } from './support/accounts';
import { snap } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';

/**
 * Wrong passwords at sign-in, in a real browser against the real server: the captcha after
 * three, then the throttle with the seconds to wait.
 */

const PASSWORD = 'Correct-Horse-42-battery';

test.describe('wrong passwords', () => {
  test('ask for the captcha after three, then throttle with the seconds to wait', async ({ page, portal, request }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('throttle');
    await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Alan Turing' });

    await signInThroughPages(page, email, 'not-the-password-1');
    const error = page.getByTestId('login-error');
    await expect(error).toHaveText('Email or password not valid');
    await expect(page.getByTestId('captcha')).toHaveCount(0);

    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    let captchaSeenAt = 0;
    let throttled = false;
    for (let attempt = 2; attempt <= 14 && !throttled; attempt++) {
      await page.getByLabel('Password', { exact: true }).fill(`not-the-password-${attempt}`);
      // From the captcha on, the widget solves before the request goes: allow for it.
      const answered = page.waitForResponse((response) => response.url().endsWith('/v3/sso/auth') && response.request().method() === 'POST', {
        timeout: 30_000,
      });
      await button.click();
      const response = await answered;
      await expect(button).not.toHaveAttribute('data-loading');
      const body = (await response.json().catch(() => ({}))) as { details?: { captcha_required?: boolean } };
      if (!captchaSeenAt && body.details?.captcha_required) {
        captchaSeenAt = attempt;
        await expect(page.getByTestId('captcha')).toBeVisible();
        await expect(page.locator('altcha-widget')).toBeVisible();
        await expect(error).toHaveText('Email or password not valid');
        await snap(page, 'identity-login-captcha');
      }
      throttled = response.status() === 429;
    }
    expect(captchaSeenAt, 'the captcha appears after the third wrong password').toBe(3);
    expect(throttled, 'the account is throttled after ten wrong passwords').toBe(true);
    await expect(error).toHaveText(/^Too many requests\. Try again in \d+ seconds$/);
    const seconds = Number(/in (\d+) seconds/.exec((await error.textContent())!)![1]);
    expect(seconds).toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
    await snap(page, 'identity-login-throttled');
  });
});

import { generate } from 'otplib';
import { setLanguage } from './support/accounts';
import { seriousViolations } from './support/axe';
import { cspViolations, pageErrors, SCREENSHOTS_ONLY, screenshotsOn, snap } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail, type Portal } from './support/mail';

/**
 * Screenshots of the sign-in, sign-up, confirmation, recovery and captcha pages in both brands and
 * languages (e2e/screenshots/identity-*.png), none with a script error or a CSP violation.
 */

test.describe('pages in both brands and languages', () => {
  test.skip(!screenshotsOn, SCREENSHOTS_ONLY);
  const brands = [
    { name: 'platform', url: (portal: Portal) => portal.platformUrl },
    { name: 'locker', url: (portal: Portal) => portal.lockerUrl },
  ] as const;

  for (const brand of brands) {
    for (const language of ['en', 'vi'] as const) {
      test(`${brand.name} ${language}`, async ({ page, context, portal }) => {
        test.setTimeout(90_000);
        const errors = pageErrors(page);
        const csp = cspViolations(page);
        const origin = brand.url(portal);
        await setLanguage(context, portal, language);
        const shot = (name: string) => snap(page, `identity-${brand.name}-${language}-${name}`);
        const settle = async () => {
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          await page.waitForLoadState('networkidle');
        };

        await page.goto(`${origin}/login`);
        await settle();
        await shot('login');

        await page.locator('input[name="username"]').fill('ada@example.test');
        await page.locator('form button[type="submit"]').click();
        await expect(page).toHaveURL(/\/login\/password/);
        await settle();
        await shot('login-password');

        await page.goto(`${origin}/register`);
        await settle();
        await expect(page.locator('altcha-widget')).toBeVisible();
        await shot('register');

        await page.goto(`${origin}/register/premium`);
        await settle();
        await expect(page.getByTestId('plan-price')).toBeVisible();
        await shot('register-premium');

        await page.goto(`${origin}/register?SERVICE_SCOPE=secret`);
        await settle();
        await shot('register-secret');

        await page.goto(`${origin}/register/verifying-email`);
        await settle();
        await shot('verifying-email');

        await page.goto(`${origin}/confirmation/not-a-real-token`);
        await settle();
        await expect(page.getByRole('alert')).toBeVisible();
        await shot('confirmation-invalid');

        await page.goto(`${origin}/forgot`);
        await settle();
        await shot('forgot');

        await page.goto(`${origin}/reset-pwd/not-a-real-token`);
        await settle();
        await expect(page.getByRole('alert')).toBeVisible();
        await shot('reset-invalid');

        await page.goto(`${origin}/captcha`);
        await settle();
        await shot('captcha');

        expect(errors).toEqual([]);
        expect(csp).toEqual([]);
      });
    }
  }
});

test("after the first screen of /login, the second step's Verify button keeps its fill", async ({ page, portal, request }) => {
  const PASSWORD = 'Orchid-Lantern-Harbor-58';
  const email = uniqueEmail('first-screen-2fa');
  await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  expect((await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: PASSWORD } })).ok()).toBe(true);
  const { secret } = (await (await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  const enabled = await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret, epoch: Date.now() / 1000 }) } });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  // The server renders the first screen on its first use: /login carries it from then on.
  await expect.poll(async () => (await (await page.request.get(`${portal.platformUrl}/login`)).text()).includes('data-first-screen')).toBe(true);

  await page.goto(`${portal.platformUrl}/login`);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const verify = page.getByRole('button', { name: 'Verify' });
  await expect(verify).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // Every stylesheet the page asked for has loaded: a late one is what took the fill away.
  await page.waitForLoadState('networkidle');
  // The platform's primary blue (Mantine's blue.8), not the transparent background of an unstyled button.
  expect(await verify.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(25, 113, 194)');
  await snap(page, 'identity-second-step');
});

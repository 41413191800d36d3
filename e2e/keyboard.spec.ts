import type { Locator, Page } from '@playwright/test';
import { generate } from 'otplib';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';

/**
 * Every form usable by keyboard alone: the tests reach each field with Tab (never a click
 * or a focus() call), type, tick boxes with Space and send with Enter. Sign-in (identifier,
 * password, the two-step code) and sign-up.
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const MAX_TABS = 40;

/** Presses Tab until `target` has the focus; fails if it never does (unreachable by keyboard). */
async function tabTo(page: Page, target: Locator): Promise<void> {
  // /login paints a server-rendered first screen that is inert until the live page replaces it.
  await expect(page.locator('[data-first-screen]')).toHaveCount(0);
  await expect(target).toBeVisible();
  for (let presses = 0; presses < MAX_TABS; presses++) {
    if (await target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} is not reachable with Tab within ${MAX_TABS} presses`);
}

test.describe.configure({ timeout: 90_000 });

test('sign-in by keyboard alone: identifier, password, then the two-step code', async ({ page, portal, request }) => {
  const account = { email: uniqueEmail('keyboard-in'), password: PASSWORD, fullName: 'Ada Lovelace' };
  await createActivatedAccount(request, portal, account);
  // Two-step on (TOTP) through the API, so the sign-in has its second step.
  const signedIn = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(signedIn.status()).toBe(200);
  const { secret } = (await (await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  const enabled = await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret }) } });
  expect(enabled.status(), await enabled.text()).toBe(200);

  await page.goto('/login');
  await tabTo(page, page.locator('input[name="username"]'));
  await page.keyboard.type(account.email);
  await page.keyboard.press('Enter');

  await tabTo(page, page.locator('input[name="password"]'));
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  const code = page.getByTestId('second-factor-code').getByRole('textbox').first();
  await tabTo(page, code);
  // The code of the next period: this one was spent turning two-step on.
  await page.keyboard.type(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  const verify = page.getByRole('button', { name: 'Verify' });
  if (await verify.isVisible()) {
    await tabTo(page, verify);
    await page.keyboard.press('Enter');
  }
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('sign-up by keyboard alone: every field, the terms box, the captcha and the button', async ({ page }) => {
  const email = uniqueEmail('keyboard-up');
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

  await tabTo(page, page.getByLabel('Full name'));
  await page.keyboard.type('Ada Lovelace');
  await tabTo(page, page.getByLabel('Email', { exact: true }));
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(PASSWORD);
  const terms = page.getByRole('checkbox', { name: /I agree to the/ });
  await tabTo(page, terms);
  await page.keyboard.press('Space');
  await expect(terms).toBeChecked();
  // The ALTCHA widget solves its proof of work by itself from the first focus in the form.
  await expect(page.locator('altcha-widget')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Create account' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/register\/verifying-email$/, { timeout: 20_000 });
  await expect(page.getByText(`We sent an activation link to ${email}`)).toBeVisible();
});

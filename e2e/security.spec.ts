import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { generate } from 'otplib';
import { addVirtualAuthenticator, SCREENSHOTS_ONLY, screenshotsOn, snap } from './support/helpers';
import { codeIn, createActivatedAccount, expect, linkIn, test, uniqueEmail, type Portal } from './support/mail';

/**
 * Second factors and passwordless sign-in in a real Chromium against the real server:
 * passkeys with the DevTools virtual authenticator (add, sign in, remove and be refused;
 * sign up with a passkey and activate by mail), TOTP two-step verification with codes
 * computed here (password plus code, then a recovery code, which works only once),
 * signing out another device from device activity, the email-code sign-in, and
 * screenshots of every security page in both brands and languages.
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';

interface Account {
  email: string;
  password: string;
  fullName: string;
}

async function newAccount(request: APIRequestContext, portal: Portal, label: string): Promise<Account> {
  const account = { email: uniqueEmail(label), password: PASSWORD, fullName: 'Grace Hopper' };
  await createActivatedAccount(request, portal, account);
  return account;
}

/** Signs the context in through the API (its cookie jar gets the session). */
async function signIn(context: BrowserContext, origin: string, account: Pick<Account, 'email' | 'password'>, language: 'en' | 'vi' = 'en'): Promise<void> {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
}

/** Signs in from inside the page (Node cannot resolve locker.localhost; Chromium can). */
async function signInInBrowser(page: Page, origin: string, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto(`${origin}/login/explore`);
  const status = await page.evaluate(
    async ({ email, password }) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
    { email: account.email, password: account.password },
  );
  expect(status).toBe(200);
}

async function signOut(page: Page): Promise<void> {
  const status = await page.evaluate(async () => (await fetch('/v3/sso/logout', { method: 'POST', credentials: 'include' })).status);
  expect(status).toBeLessThan(300);
}

/** Types a code into a Mantine PinInput (a whole code in its first box counts as pasted). */
async function typeCode(page: Page, container: string, code: string): Promise<void> {
  await page.getByTestId(container).getByRole('textbox').first().fill(code);
}

/** The TOTP code `steps` periods from now (the server refuses a code twice in one period). */
const totp = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Sign in with the password steps of /login, up to the two-step verification step. */
async function passwordSteps(page: Page, account: Account): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="username"]').fill(account.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.locator('input[name="password"]').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
}

async function expectHome(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

test.describe.configure({ timeout: 120_000 });

test('passkeys: create one, sign in with it, remove it and be refused', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'passkey');
  await addVirtualAuthenticator(page);
  await signIn(page.context(), portal.platformUrl, account);

  await page.goto('/security/webauthn');
  await expect(page.getByTestId('passkeys-empty')).toBeVisible();
  await page.getByTestId('create-passkey').click();
  await page.getByTestId('passkey-name').fill('Test laptop');
  await page.getByTestId('passkey-create-submit').click();
  await expect(page.getByTestId('passkey-row')).toHaveCount(1);
  await expect(page.getByTestId('passkey-row')).toContainText('Test laptop');
  await snap(page, 'security-passkeys-created');

  // Rename it.
  await page.getByRole('button', { name: 'Rename: Test laptop' }).click();
  await page.getByTestId('passkey-rename-input').fill('Office laptop');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('passkey-row')).toContainText('Office laptop');

  // Signed out, the passkey alone signs in (user-verified: both factors). Once the visitor
  // uses the identifier input (here a click), it asks for the browser's passkey autofill
  // (conditional mediation), which the virtual authenticator answers at once; the button
  // would start the same ceremony.
  await signOut(page);
  await page.goto('/login');
  await page.locator('input[name="username"]').click();
  await expectHome(page);

  await page.goto('/security/webauthn');
  await expect(page.getByTestId('passkey-row')).not.toContainText('Never');
  await page.getByRole('button', { name: 'Remove: Office laptop' }).click();
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('passkeys-empty')).toBeVisible();

  // The authenticator still holds the credential; the server no longer knows it: refused
  // through the autofill and through the button.
  await signOut(page);
  await page.goto('/login');
  await expect(page.locator('input[name="username"]')).toHaveAttribute('autocomplete', 'username webauthn');
  await page.locator('input[name="username"]').click();
  await expect(page.getByTestId('passkey-error')).toHaveText('Passkeys authentication failed');
  await page.getByTestId('passkey-sign-in').click();
  await expect(page.getByTestId('passkey-error')).toHaveText('Passkeys authentication failed');
  await page.waitForTimeout(1000);
  expect(new URL(page.url()).pathname).toBe('/login');
  await snap(page, 'login-passkey-refused');
});

test('sign up with a passkey, activate by mail, sign in with the passkey', async ({ page, portal }) => {
  await addVirtualAuthenticator(page);
  const email = uniqueEmail('passkey-signup');
  await page.goto('/register');
  await page.getByTestId('passkey-sign-up-start').click();
  await page.getByLabel('Full name').fill('Katherine Johnson');
  await page.getByLabel('Email').fill(email);
  await page.getByTestId('passkey-sign-up').getByRole('checkbox', { name: /Terms of Service/ }).check();
  await snap(page, 'register-passkey-en');
  await page.getByTestId('passkey-sign-up-submit').click();
  await page.waitForURL(/\/register\/verifying-email/);
  await expect(page.getByText(email)).toBeVisible();

  // Not activated yet: the passkey does not sign in.
  const mail = await portal.waitForMail(email, { subject: /activate/i });
  await page.goto(linkIn(mail, '/confirmation/'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The passkey signs in (the browser's autofill, asked for once the identifier input is
  // used, answered by the virtual authenticator).
  await page.goto('/login');
  await page.locator('input[name="username"]').click();
  await expectHome(page);

  // A passkey-only account sets a password without a current one.
  await page.goto('/security/password');
  await expect(page.getByText('Set a password').first()).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByTestId('password-changed')).toBeVisible();
  await expect(page.getByLabel('Current password')).toBeVisible();
});

test('TOTP two-step verification: password plus code, then a recovery code that works once', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'totp');
  await signIn(page.context(), portal.platformUrl, account);

  await page.goto('/security/two-step-verification');
  await page.getByTestId('choose-totp').click();
  await expect(page.getByTestId('totp-qr')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  await snap(page, 'security-two-step-totp-setup');
  // The PinInput submits itself once six digits are in.
  await typeCode(page, 'otp-input', await totp(secret));
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  const codes = await page.getByTestId('recovery-code').allInnerTexts();
  expect(codes.length).toBeGreaterThanOrEqual(8);
  await snap(page, 'security-two-step-recovery-codes');
  await expect(page.getByTestId('codes-done')).toBeDisabled();
  await page.getByTestId('codes-saved').check();
  await page.getByTestId('codes-done').click();
  await expect(page.getByTestId('two-step-on')).toBeVisible();
  await expect(page.getByTestId('recovery-remaining')).toContainText(String(codes.length));
  await snap(page, 'security-two-step-on');

  // Password, then a code (of the next period: this one was spent turning it on).
  await signOut(page);
  await passwordSteps(page, account);
  await snap(page, 'login-second-factor-totp');
  await typeCode(page, 'second-factor-code', await totp(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectHome(page);

  // Password, then a recovery code (lower case works).
  await signOut(page);
  await passwordSteps(page, account);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!.toLowerCase());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectHome(page);

  // The same recovery code again: refused.
  await signOut(page);
  await passwordSteps(page, account);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText(/not valid|incorrect/i);
  expect(new URL(page.url()).pathname).toBe('/login/password');
});

test('device activity: signing out another device from this one', async ({ browser, portal, request }) => {
  const account = await newAccount(request, portal, 'devices');
  const mine = await browser.newContext({ baseURL: portal.platformUrl });
  const other = await browser.newContext({ baseURL: portal.platformUrl });
  try {
    await signIn(mine, portal.platformUrl, account);
    await signIn(other, portal.platformUrl, account);
    const otherPage = await other.newPage();
    await otherPage.goto('/security');
    await expect(otherPage.getByTestId('overview-password')).toBeVisible();

    const page = await mine.newPage();
    await page.goto('/security/device-activity');
    await expect(page.getByTestId('session-row')).toHaveCount(2);
    await expect(page.locator('[data-current="true"]').getByTestId('this-device')).toHaveText('This device');
    await snap(page, 'security-device-activity-two');
    await page.getByTestId('revoke-session').click();
    await page.getByTestId('confirm-action').click();
    await expect(page.getByTestId('session-row')).toHaveCount(1);
    await expect(page.getByText('No other device is signed in.')).toBeVisible();

    // The other browser's next page load finds itself signed out.
    await otherPage.reload();
    await otherPage.waitForURL(/\/login/);
    expect(new URL(otherPage.url()).pathname).toMatch(/^\/login/);
  } finally {
    await mine.close();
    await other.close();
  }
});

test('email-code sign-in through the SMTP peer', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'quick');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with an email code' }).click();
  await page.waitForURL(/\/login\/quick/);
  // The address changes as the link is followed; /login (whose field is also "Email") stays on
  // screen until the next page's code has loaded: fill the field once that page shows.
  await expect(page.getByRole('heading', { name: 'Sign in with an email code' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await snap(page, 'login-quick-en');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${account.email}`)).toBeVisible();
  await snap(page, 'login-quick-code-en');
  const mail = await portal.waitForMail(account.email, { subject: /sign-in code/i });
  await typeCode(page, 'otp-input', codeIn(mail));
  await expectHome(page);
});

test('screenshots of the security pages in both brands and languages', async ({ page, portal, request }) => {
  test.skip(!screenshotsOn, SCREENSHOTS_ONLY);
  test.setTimeout(300_000);
  const account = await newAccount(request, portal, 'shots');
  const pages = ['/security', '/security/password', '/security/two-step-verification', '/security/webauthn', '/security/device-activity'];
  for (const [brand, origin] of [
    ['platform', portal.platformUrl],
    ['locker', portal.lockerUrl],
  ] as const) {
    for (const language of ['en', 'vi'] as const) {
      await page.context().clearCookies();
      await page.context().addCookies([{ name: 'lang', value: language, url: origin }]);
      await page.goto(`${origin}/login/quick`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await snap(page, `login-quick-${brand}-${language}`);
      await page.goto(`${origin}/login`);
      await expect(page.getByTestId('passkey-sign-in')).toBeVisible();
      await snap(page, `login-passkey-${brand}-${language}`);
      await signInInBrowser(page, origin, account);
      for (const path of pages) {
        await page.goto(`${origin}${path}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
        await snap(page, `security-${path.split('/')[2] ?? 'overview'}-${brand}-${language}`);
      }
      await page.goto(`${origin}/security/two-step-verification`);
      await page.getByTestId('choose-totp').click();
      await expect(page.getByTestId('totp-qr')).toBeVisible();
      await snap(page, `security-two-step-setup-${brand}-${language}`);
      await signOut(page);
    }
  }
});

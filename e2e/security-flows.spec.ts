import type { APIRequestContext, Page } from '@playwright/test';
import { generate } from 'otplib';
import { seriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { codeIn, createActivatedAccount, expect, test, uniqueEmail, type Portal } from './support/mail';

/**
 * The security pages' remaining flows in Chromium against the real server, each with its
 * main failure path: turning two-step off, regenerating recovery codes, email as the second
 * step, changing the password, and signing out every other device.
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const NEW_PASSWORD = 'Quartz-Meadow-Falcon-93';

interface Account {
  email: string;
  password: string;
  fullName: string;
}

async function newAccount(request: APIRequestContext, portal: Portal, label: string): Promise<Account> {
  const account = { email: uniqueEmail(label), password: PASSWORD, fullName: 'Ada Lovelace' };
  await createActivatedAccount(request, portal, account);
  return account;
}

/** Signs the page's context in through the API (the session cookie lands in its jar). */
async function signIn(page: Page, portal: Portal, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  const response = await page.context().request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
}

const epoch = () => Math.floor(Date.now() / 1000);

/** TOTP on through the API; answers the secret (the code of this period is spent) and the recovery codes. */
async function totpOnWithCodes(page: Page, portal: Portal): Promise<{ secret: string; recoveryCodes: string[] }> {
  const request = page.context().request;
  const { secret } = (await (await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  const enabled = await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret, epoch: epoch() }) } });
  expect(enabled.status(), await enabled.text()).toBe(200);
  return { secret, recoveryCodes: ((await enabled.json()) as { recovery_codes: string[] }).recovery_codes };
}

async function totpOn(page: Page, portal: Portal): Promise<string> {
  return (await totpOnWithCodes(page, portal)).secret;
}

/** Types a code into the OTP input of `scope` (a whole code in its first box counts as pasted). */
async function typeCode(scope: ReturnType<Page['getByRole']>, code: string): Promise<void> {
  await scope.getByRole('textbox').filter({ hasNot: scope.page().getByTestId('confirm-password') }).nth(1).fill(code);
}

test.describe.configure({ timeout: 120_000 });

test('regenerating recovery codes: refused with a wrong password, then new codes that replace the old', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'regen');
  await signIn(page, portal, account);
  const { secret, recoveryCodes } = await totpOnWithCodes(page, portal);
  await page.goto('/security/two-step-verification');
  await expect(page.getByTestId('two-step-on')).toBeVisible();

  await page.getByTestId('regenerate-codes').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('confirm-password')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'security-regenerate-codes-dialog');
  await dialog.getByTestId('confirm-password').fill('not-my-password-123');
  await typeCode(dialog, await generate({ secret, epoch: epoch() + 30 }));
  await dialog.getByRole('button', { name: 'Make new recovery codes' }).click();
  await expect(dialog.getByText('Password not valid')).toBeVisible();

  // The right password, with a recovery code (this period's app code may be spent).
  await dialog.getByTestId('confirm-password').fill(account.password);
  await dialog.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await dialog.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await dialog.getByRole('button', { name: 'Make new recovery codes' }).click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  const fresh = await page.getByTestId('recovery-code').allInnerTexts();
  expect(fresh.length).toBeGreaterThanOrEqual(8);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'security-regenerated-codes');
  expect(fresh).not.toContain(recoveryCodes[1]);
});

test('turning two-step off: refused with a wrong code, then off, and sign-in needs the password only', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'off');
  await signIn(page, portal, account);
  const secret = await totpOn(page, portal);
  await page.goto('/security/two-step-verification');
  await page.getByTestId('disable-two-step').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('confirm-password').fill(account.password);
  await typeCode(dialog, '000000');
  await dialog.getByRole('button', { name: /Turn off/i }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  // The refusal inside the dialog, as a person reads it.
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'security-turn-off-refused');
  await expect(page.getByTestId('two-step-on')).toBeVisible();

  await typeCode(dialog, await generate({ secret, epoch: epoch() + 30 }));
  await dialog.getByRole('button', { name: /Turn off/i }).click();
  await expect(page.getByTestId('choose-email')).toBeVisible();
  const fresh = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(await fresh.json()).toHaveProperty('token');
});

test('email as the second step: a wrong code is refused, the mailed one turns it on, and sign-in asks for a mailed code', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'email2fa');
  await signIn(page, portal, account);
  await page.goto('/security/two-step-verification');
  await page.getByTestId('choose-email').click();
  await page.getByTestId('send-two-step-email').click();
  const mail = await portal.waitForMail(account.email, { subject: /code/i });
  await page.getByTestId('otp-input').getByRole('textbox').first().fill(codeIn(mail) === '000000' ? '111111' : '000000');
  await expect(page.getByRole('alert').first()).toBeVisible();
  await page.getByTestId('otp-input').getByRole('textbox').first().fill(codeIn(mail));
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  await page.getByTestId('codes-saved').check();
  await page.getByTestId('codes-done').click();
  await expect(page.getByTestId('two-step-on')).toBeVisible();

  const started = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(await started.json()).toMatchObject({ mfa_required: true, method: 'email' });
});

test('changing the password: refused with a wrong current one, then changed; only the new one signs in', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'chpw');
  await signIn(page, portal, account);
  await page.goto('/security/password');
  const form = page.getByTestId('password-form');
  await form.getByLabel('Current password').fill('not-my-password-123');
  await form.getByLabel('New password').fill(NEW_PASSWORD);
  await form.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('password-changed')).toHaveCount(0);
  await expect(form.getByText(/not valid|incorrect|wrong/i).first()).toBeVisible();

  await form.getByLabel('Current password').fill(account.password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('password-changed')).toBeVisible();
  const old = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(old.status()).toBe(400);
  const fresh = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: NEW_PASSWORD } });
  expect(fresh.status()).toBe(200);
});

test('signing out every other device: cancelling keeps them, confirming ends them and keeps this one', async ({ page, portal, request }) => {
  const account = await newAccount(request, portal, 'others');
  const other = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  const otherToken = ((await other.json()) as { token: string }).token;
  const otherMe = () => request.get(`${portal.platformUrl}/v3/sso/me`, { headers: { authorization: `Bearer ${otherToken}` } });
  await signIn(page, portal, account);
  await page.goto('/security/device-activity');

  await page.getByTestId('revoke-others').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  expect((await otherMe()).status()).toBe(200);

  await page.getByTestId('revoke-others').click();
  await page.getByRole('dialog').getByTestId('confirm-action').click();
  await expect.poll(async () => (await otherMe()).status()).toBe(401);
  await page.reload();
  await expect(page).toHaveURL(/\/security\/device-activity$/);
  await expect(page.getByTestId('revoke-others')).toHaveCount(0);
});

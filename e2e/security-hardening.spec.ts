import type { APIRequestContext, Page } from '@playwright/test';
import type { Challenge } from 'altcha-lib';
import { generate } from 'otplib';
import { solveAltcha } from '../packages/server/test/captcha';
import { startSmtpPeer } from '../packages/server/test/smtp-peer';
import { addVirtualAuthenticator, chooseLanguage, snap } from './support/helpers';
import { looksRight } from './support/operators';
import { codeIn, createActivatedAccount, expect, poll, test as shared, uniqueEmail, type MailMessage, type Portal } from './support/mail';
import { startPortalServer } from './support/server';

/**
 * The account protections as a person meets them, on a server of its own (a 15-second window for sensitive
 * changes, so the re-authentication dialog shows without waiting five minutes):
 * - locked out by wrong passwords, the owner resets through the recovery email and signs in
 *   at once, from the same network;
 * - a sensitive change after the window asks for the password in a dialog, then goes through.
 */
const test = shared.extend<object, { portal: Portal }>({
  portal: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const peer = await startSmtpPeer();
      const server = await startPortalServer({ env: { SMTP_URL: peer.url, REAUTH_MAX_AGE_SECONDS: '15' } }).catch(async (error: unknown) => {
        await peer.close();
        throw error;
      });
      try {
        await use({
          platformUrl: server.platformUrl,
          lockerUrl: server.lockerUrl,
          waitForMail: (to, options) => poll(() => peer.messages as unknown as MailMessage[], to, options),
        });
      } finally {
        await server.close();
        await peer.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

// Both tests in one worker, one after another: the server above is started once (as two jobs,
// each worker that took one started its own).
test.describe.configure({ mode: 'default' });

const PASSWORD = 'Correct-Horse-42-battery';
const NEW_PASSWORD = 'Staple-Lantern-77-orbit';

async function captcha(request: APIRequestContext, baseUrl: string): Promise<string> {
  return solveAltcha((await (await request.get(`${baseUrl}/v3/sso/captcha/challenge`)).json()) as Challenge);
}

async function signInThroughPages(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email or username').fill(identifier);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('locked out, the owner resets through the recovery email and signs in at once from the same network', async ({ page, portal, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('locked');
  const backup = uniqueEmail('backup');
  await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Locked Owner' });

  // A verified recovery email, set while signed in (this request context keeps the session).
  expect((await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  expect((await request.put(`${portal.platformUrl}/v3/sso/me/recovery-email`, { data: { email: backup, password: PASSWORD } })).ok()).toBe(true);
  const verifyCode = codeIn(await portal.waitForMail(backup));
  expect((await request.post(`${portal.platformUrl}/v3/sso/me/recovery-email/verify`, { data: { code: verifyCode } })).ok()).toBe(true);
  await request.post(`${portal.platformUrl}/v3/sso/logout`);

  // Someone guesses from this network until the account's budget is spent.
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: `wrong-guess-${attempt}`, captcha: await captcha(request, portal.platformUrl) } });
  }
  const locked = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: PASSWORD, captcha: await captcha(request, portal.platformUrl) } });
  expect(locked.status()).toBe(429);

  // The owner lost the primary mailbox: /forgot through the recovery email.
  await page.goto('/forgot');
  await page.getByLabel('Email or username').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Recovery email').fill(backup);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter the code' })).toBeVisible();
  await expect(page.getByText(backup)).toBeVisible();
  const mail = await portal.waitForMail(backup, { subject: /reset/i });
  await snap(page, 'security-hardening-recovery-email-code');
  await page.getByTestId('recovery-code').locator('input').first().click();
  await page.keyboard.type(codeIn(mail));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // At once, same network, the new password: signed in, no "Try again in ... seconds".
  await signInThroughPages(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(`${portal.platformUrl}/`);
  await snap(page, 'security-hardening-signed-in-after-reset');
});

test('a sensitive change after the window asks for the password in a dialog, then goes through', async ({ page, context, portal, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('reauth');
  await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Re Auth' });
  expect((await context.request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  await page.goto('/api-keys');
  await expect(page.getByText('You have no API keys yet.')).toBeVisible();
  // The sign-in grows older than the window (15 s on this server).
  await page.waitForTimeout(16_000);

  await page.getByTestId('create-api-key').click();
  const create = page.getByRole('dialog').filter({ hasText: 'Create key' });
  await create.getByLabel('Name').fill('after a while');
  await create.getByRole('button', { name: 'Create key' }).click();

  const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(reauth).toBeVisible();
  await reauth.getByLabel('Password').fill('not-the-password');
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(reauth.getByText('Password not valid')).toBeVisible();
  await snap(page, 'security-hardening-reauth-dialog');
  await reauth.getByLabel('Password').fill(PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(reauth).toBeHidden();
  await expect(page.getByTestId('created-key-value')).toHaveText(/^pk_/);
});

test('adding a passkey to a two-step account after the window asks for the second step, not the password', async ({ page, context, portal, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('second-step');
  await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Second Step' });
  expect((await context.request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: PASSWORD } })).status()).toBe(200);
  // Two-step on through the API while the sign-in is fresh; the browser's platform authenticator stands by.
  const { secret } = (await (await context.request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  const codeAt = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
  expect((await context.request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await codeAt(0) } })).status()).toBe(200);
  await addVirtualAuthenticator(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/security/webauthn');
  await chooseLanguage(page, 'vi');
  await expect(page.getByTestId('passkeys-empty')).toBeVisible();
  // The sign-in grows older than the window (15 s on this server).
  await page.waitForTimeout(16_000);

  const reauth = page.getByRole('dialog', { name: 'Xác nhận đó là bạn' });
  const addPasskey = async () => {
    await page.getByTestId('create-passkey').click();
    await page.getByTestId('passkey-name').fill('Laptop');
    await page.getByTestId('passkey-create-submit').click();
  };
  await addPasskey();
  await expect(reauth.getByText('Thêm khóa truy cập cần bước xác minh thứ hai của bạn.', { exact: false })).toBeVisible();
  await expect(reauth.getByLabel('Mật khẩu')).toHaveCount(0);
  await looksRight(page, 'security-hardening-reauth-second-step-390-vi');
  // Cancelled: the change is given up (with the usual 403 toast, which a new page clears).
  await reauth.getByRole('button', { name: 'Hủy' }).click();
  await expect(reauth).toBeHidden();

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.reload();
  await chooseLanguage(page, 'en');
  await addPasskey();
  const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(confirm.getByText('Adding a passkey needs your second step. Enter a code from your second step or a recovery code to continue.')).toBeVisible();
  await expect(confirm.getByLabel('Password')).toHaveCount(0);
  await looksRight(page, 'security-hardening-reauth-second-step-1440-en');
  // A later period's code than the one that turned two-step on (a code is taken once per period).
  await confirm.getByLabel('Verification code').fill(await codeAt(1));
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('passkey-row')).toHaveCount(1);
});

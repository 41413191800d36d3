import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { startOAuth2Idp, startOidcIdp } from '../packages/server/test/fake-idps';
import { expectNoSeriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { freePort, startPortalServer, type PortalServer } from './support/server';

/**
 * Social sign-in in Chromium against providers the spec starts: a second oidc-provider as
 * "Google" and a GitHub-shaped OAuth 2.0 server. Sign-up through /create-user, sign-in again
 * with two-step on, linking and unlinking from the security page, and the refusals a person
 * meets (an address that already has an account; a wrong mailed code).
 */
test.describe.configure({ mode: 'serial' });

const CLIENT = { clientId: 'portal-e2e', clientSecret: 'portal-e2e-secret-0123456789abcdef' };
let portal: PortalServer;
let dataDir: string;
let google: Awaited<ReturnType<typeof startOidcIdp>>;
let github: Awaited<ReturnType<typeof startOAuth2Idp>>;
const email = `social-${Date.now()}@example.com`;
let totpSecret = '';
/** The browser state of the first test's last sign-in (Google and the second step): the second test goes on from it. */
let signedInState: Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  google = await startOidcIdp({ ...CLIENT, redirectUris: [`http://localhost:${port}/callback`] });
  github = await startOAuth2Idp('github', CLIENT);
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-social-'));
  const env: Record<string, string> = {
    DATA_DIR: path.join(dataDir, 'db'),
    SOCIAL_GOOGLE_CLIENT_ID: CLIENT.clientId,
    SOCIAL_GOOGLE_CLIENT_SECRET: CLIENT.clientSecret,
    SOCIAL_GOOGLE_ISSUER: google.issuer,
    SOCIAL_GITHUB_CLIENT_ID: CLIENT.clientId,
    SOCIAL_GITHUB_CLIENT_SECRET: CLIENT.clientSecret,
    ...Object.fromEntries(Object.entries(github.settings).map(([name, value]) => [`SOCIAL_GITHUB_${name}`, value])),
  };
  portal = await startPortalServer({ env, port });
});

test.afterAll(async () => {
  await portal?.close();
  await Promise.all([google?.close(), github?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('sign up with Google through /create-user, then sign in again with two-step on', async ({ page }) => {
  google.signInAs({ sub: 'google-ada', email, email_verified: true, name: 'Ada Lovelace' });
  await page.goto(`${portal.platformUrl}/login`);
  await snap(page, 'social-login-buttons');
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Continue with Google' }).click();

  await expect(page).toHaveURL(/\/create-user$/);
  await expect(page.getByLabel('Full name')).toHaveValue('Ada Lovelace');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Accept the Terms of Service and Privacy Policy')).toBeVisible();
  await page.getByRole('checkbox').check();
  await snap(page, 'social-create-user');
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(`${portal.platformUrl}/`);
  const me = await page.context().request.get(`${portal.platformUrl}/v3/sso/me`);
  expect(await me.json()).toMatchObject({ email, full_name: 'Ada Lovelace' });

  // Two-step on, then out and in again with Google: the second step follows the provider.
  const request = page.context().request;
  totpSecret = ((await (await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string }).secret;
  expect((await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret: totpSecret }) } })).status()).toBe(200);
  await page.context().clearCookies();
  await page.goto(`${portal.platformUrl}/login`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const step = page.getByTestId('second-factor-code');
  // Four hops (our start, the IdP's authorize and login, /callback's exchange): under a loaded CI it took over 10 s once.
  await expect(step).toBeVisible({ timeout: 30_000 });
  await step.getByRole('textbox').first().fill(await generate({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${portal.platformUrl}/`);
  expect((await (await page.context().request.get(`${portal.platformUrl}/v3/sso/me`)).json()).email).toBe(email);
  signedInState = await page.context().storageState();
});

test('links GitHub from the security page and unlinks it; the last way in stays', async ({ browser }) => {
  // The sign-in just made (Google and the second step) is the recent proof linking asks for.
  const context = await browser.newContext({ storageState: signedInState });
  const page = await context.newPage();

  await page.goto(`${portal.platformUrl}/security`);
  const section = page.getByTestId('linked-accounts');
  await expect(section.getByTestId('linked-google')).toBeVisible();
  github.signInAs({ id: '4242', login: 'ada', name: 'Ada', email: 'ada@github.example', verified: true });
  await page.getByTestId('link-github').click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByText('Your GitHub account is linked')).toBeVisible();
  await expect(section.getByTestId('linked-github')).toBeVisible();
  await snap(page, 'social-security-linked');
  await expectNoSeriousViolations(page);

  await section.getByRole('button', { name: 'Unlink: GitHub' }).click();
  await expect(section.getByTestId('linked-github')).toHaveCount(0);
  // Google is now the only way into this account (no password, no passkey).
  await section.getByRole('button', { name: 'Unlink: Google' }).click();
  await expect(page.getByTestId('linked-error')).toHaveText('This is your only way to sign in. Set a password or add a passkey first');
  await expect(section.getByTestId('linked-google')).toBeVisible();
  await context.close();
});

test('refusals: an address with an account already, and a provider that did not prove the email', async ({ page }) => {
  // The demo account's address, not vouched for by the provider: no takeover, a clear message.
  google.signInAs({ sub: 'google-stranger', email: 'demo@example.com', email_verified: false, name: 'Stranger' });
  await page.goto(`${portal.platformUrl}/login`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByTestId('callback-error')).toHaveText('An account with this email already exists. Sign in to it, then link Google on the Security page');
  await snap(page, 'social-callback-refused');
  await expectNoSeriousViolations(page);

  // A new person whose address the provider did not prove: a code is mailed; a wrong one is refused.
  // (Another person at the provider: its own sign-in there, not the stranger's.)
  await page.context().clearCookies({ domain: '127.0.0.1' });
  google.signInAs({ sub: 'google-unproven', email: `unproven-${Date.now()}@example.com`, email_verified: false, name: 'Una' });
  await page.goto(`${portal.platformUrl}/register`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/create-user$/);
  await expect(page.getByText('Google did not confirm this email: we will send it a code.')).toBeVisible();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('create-user-code-sent')).toBeVisible();
  await page.getByTestId('otp-input').getByRole('textbox').first().fill('000000');
  await expect(page.getByText('Verification code incorrect or expired')).toBeVisible();
  await snap(page, 'social-create-user-code');
});

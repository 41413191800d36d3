import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import sharp from 'sharp';
import { signIn } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { addVirtualAuthenticator, snap } from './support/helpers';
import { createActivatedAccount, poll, uniqueEmail } from './support/mail';
import { startTestProduct, type TestProduct } from './support/oidc-product';
import { demoAccountFromLog, operatorCommand, ROOT, startPortalServer, type PortalServer } from './support/server';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';

/**
 * Single sign-on for the products through the OpenID Connect provider, in Chromium: a test
 * product (a page with an openid-client back end on 127.0.0.1:5179) signs a person in through
 * /o/authorize. A product of the family goes straight through when the person is signed in;
 * an outside app (registered with `npm run clients`) asks on the consent page (Allow, then
 * Deny once revoked); Revoke in Connected apps makes the app's refresh fail; signing out of
 * the portal reaches the product by back-channel logout.
 *
 * The spec runs its own server: the products' client file of the tests and an outside app
 * registered in its database before it starts, and its mail going to an SMTP peer of its own
 * (accounts of their own for the tests that turn two-step on).
 */
test.describe.configure({ mode: 'serial' });

const PRODUCT_SECRET = 'product-secret-of-the-tests-0123456789';
let portal: PortalServer;
let product: TestProduct;
let dataDir: string;
let mail: SmtpPeer;
let demo: { email: string; password: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-oidc-'));
  mail = await startSmtpPeer();
  const env = {
    NODE_ENV: 'development',
    DATA_DIR: path.join(dataDir, 'db'),
    OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'oauth-clients.json'),
    OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}`,
    SMTP_URL: mail.url,
    TRUST_PROXY: '1', // accounts made through the API each present their own address
  };
  // An outside app with its logo, registered the way an operator does it (before the server opens the database).
  const logo = path.join(dataDir, 'logo.png');
  await writeFile(logo, await sharp({ create: { width: 96, height: 96, channels: 3, background: '#2b8a3e' } }).png().toBuffer());
  const registered = await operatorCommand(
    'oauth-admin',
    ['clients', 'add', '--name', 'Outside App', '--redirect-uri', 'http://127.0.0.1:5179/callback', '--site', 'https://outside.example', '--logo', logo],
    env,
  );
  const clientId = /client_id:\s+(\S+)/.exec(registered)![1]!;
  const clientSecret = /client_secret:\s+(\S+)/.exec(registered)![1]!;

  portal = await startPortalServer({ env });
  demo = (await demoAccountFromLog(portal.logFile))!;

  product = await startTestProduct(portal.platformUrl);
  await product.addApp('product', 'test-product', PRODUCT_SECRET);
  await product.addApp('outside', clientId, clientSecret);
});

test.afterAll(async () => {
  await product?.close();
  await portal?.close();
  await mail?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('a product of the family signs a signed-in person straight in (SSO)', async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => visited.push(new URL(frame.url()).pathname));
  await page.goto('http://127.0.0.1:5179/start?app=product');
  await expect(page.getByTestId('signed-in')).toHaveText(`Signed in to product as ${demo.email}`);
  await expect(page.getByTestId('amr')).toHaveText('pwd');
  // No portal page was shown on the way: no sign-in, no consent.
  expect(visited.filter((pathname) => pathname.startsWith('/login') || pathname === '/o/authorize')).toEqual([]);
});

test('a signed-out person signs in on the portal pages and comes back to the product', async ({ page }) => {
  await page.goto('http://127.0.0.1:5179/start?app=product');
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F/);
  await page.getByLabel('Email or username').fill(demo.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login\/password/);
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('signed-in')).toHaveText(`Signed in to product as ${demo.email}`);
});

test('an outside app asks for consent (Allow), is listed in Connected apps, Revoke ends its refresh, then Deny', async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  await page.goto('http://127.0.0.1:5179/start?app=outside');
  await expect(page).toHaveURL(/\/o\/authorize\?interaction=/);
  const consent = page.getByTestId('consent');
  await expect(consent).toContainText('Outside App wants to access your account');
  await expect(consent).toContainText('outside.example');
  // Its logo is served from the portal's own origin, so the page's CSP lets it load.
  await expect.poll(() => consent.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(128);
  await expect(page.getByTestId('consent-scopes')).toContainText('See your email address');
  await page.getByTestId('consent-allow').click();
  await expect(page.getByTestId('signed-in')).toHaveText(`Signed in to outside as ${demo.email}`);

  // Remembered: the next sign-in goes straight through.
  await page.goto('http://127.0.0.1:5179/start?app=outside');
  await expect(page.getByTestId('signed-in')).toBeVisible();
  await page.goto('http://127.0.0.1:5179/refresh?app=outside');
  await expect(page.getByTestId('refresh')).toHaveText('Refreshed');

  await page.goto(`${portal.platformUrl}/account`);
  const row = page.getByTestId('connected-app').filter({ hasText: 'Outside App' });
  await expect(row).toBeVisible();
  await row.getByTestId('connected-app-revoke').click();
  await expect(page.getByTestId('connected-apps')).toContainText('No app has access to your account.');
  await page.goto('http://127.0.0.1:5179/refresh?app=outside');
  await expect(page.getByTestId('refresh')).toHaveText('Refresh failed: invalid_grant');

  // Asked again after the revocation: Deny.
  await page.goto('http://127.0.0.1:5179/start?app=outside');
  await page.getByTestId('consent-deny').click();
  await expect(page.getByTestId('error')).toHaveText('Not signed in: access_denied');
});

test('signing out of the portal reaches the product by back-channel logout', async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  await page.goto('http://127.0.0.1:5179/start?app=product');
  await expect(page.getByTestId('signed-in')).toBeVisible();
  const before = product.logoutTokens.length;
  const out = await page.context().request.post(`${portal.platformUrl}/v3/sso/logout`, { headers: { origin: portal.platformUrl } });
  expect(out.ok()).toBe(true);
  await expect.poll(() => product.logoutTokens.length).toBeGreaterThan(before);
  await page.goto('http://127.0.0.1:5179/refresh?app=product');
  await expect(page.getByTestId('refresh')).toHaveText('Refresh failed: invalid_grant');
});

test("RP-initiated logout: after 'Yes, sign me out' the browser lands on the app's own page (another origin)", async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  await page.goto('http://127.0.0.1:5179/start?app=product&device=logout');
  await expect(page.getByTestId('signed-in')).toBeVisible();
  await page.goto('http://127.0.0.1:5179/logout?app=product&device=logout');
  await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(portal.platformUrl);
  await snap(page, 'oidc-logout-question');
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  // The confirm form's 303 leads to the app's registered post-logout URI, which the page's CSP lets the browser follow.
  await expect(page).toHaveURL('http://127.0.0.1:5179/');
  await expect(page.getByTestId('product-home')).toBeVisible();
  const me = await page.context().request.get(`${portal.platformUrl}/v3/sso/me`);
  expect(me.status()).toBe(401);
});

test('RP-initiated logout from a browser with no portal session goes straight back to the app', async ({ page, browser }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  await page.goto('http://127.0.0.1:5179/start?app=product&device=elsewhere');
  await expect(page.getByTestId('signed-in')).toBeVisible();
  // Another browser, signed out: the provider's page posts itself (no question) and the browser follows to the app.
  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    await elsewhere.goto('http://127.0.0.1:5179/logout?app=product&device=elsewhere');
    await expect(elsewhere).toHaveURL('http://127.0.0.1:5179/');
    await expect(elsewhere.getByTestId('product-home')).toBeVisible();
  } finally {
    await other.close();
  }
});

test("an app's revocation at sign-out ends its sign-in on that browser only: the other browser keeps it, and the consent stays", async ({ browser }) => {
  const laptop = await browser.newContext();
  const phone = await browser.newContext();
  try {
    await signIn(laptop, portal.platformUrl, demo);
    await signIn(phone, portal.platformUrl, demo);
    const onLaptop = await laptop.newPage();
    await onLaptop.goto('http://127.0.0.1:5179/start?app=outside&device=laptop');
    // Asked once (an earlier test revoked the app and denied it).
    await onLaptop.getByTestId('consent-allow').click();
    await expect(onLaptop.getByTestId('signed-in')).toHaveText(`Signed in to outside as ${demo.email}`);
    const onPhone = await phone.newPage();
    await onPhone.goto('http://127.0.0.1:5179/start?app=outside&device=phone');
    await expect(onPhone.getByTestId('signed-in')).toHaveText(`Signed in to outside as ${demo.email}`);

    // The app signs the person out on the laptop and revokes that refresh token.
    await onLaptop.goto('http://127.0.0.1:5179/revoke?app=outside&device=laptop');
    await expect(onLaptop.getByTestId('revoke')).toHaveText('Revoked');
    await onLaptop.goto('http://127.0.0.1:5179/refresh?app=outside&device=laptop');
    await expect(onLaptop.getByTestId('refresh')).toHaveText('Refresh failed: invalid_grant');
    // The phone is still signed in to the app.
    await onPhone.goto('http://127.0.0.1:5179/refresh?app=outside&device=phone');
    await expect(onPhone.getByTestId('refresh')).toHaveText('Refreshed');
    // The consent stays: the laptop's next sign-in to the app asks nothing.
    await onLaptop.goto('http://127.0.0.1:5179/start?app=outside&device=laptop');
    await expect(onLaptop.getByTestId('signed-in')).toHaveText(`Signed in to outside as ${demo.email}`);
  } finally {
    await laptop.close();
    await phone.close();
  }
});

test('/callback-app refuses a private scheme that is not registered for the app it names', async ({ page }) => {
  let opened = false;
  page.on('request', (request) => void (opened ||= request.url().startsWith('com.evil.app:')));
  const target = encodeURIComponent('com.evil.app:/callback?code=c0de');
  await page.goto(`${portal.platformUrl}/callback-app#to=${target}&client_id=test-desktop`);
  await expect(page.getByTestId('callback-app-error')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the desktop app' })).toHaveCount(0);
  expect(opened).toBe(false);
});

// Last: it turns two-step on for the demo account, which the tests above sign in without.
test('a desktop app signs in through its private scheme: consent, then /callback-app hands the code to the app', async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  // The desktop app's side (a public native client with PKCE), as the app would run it.
  const desktop = await oidc.discovery(new URL(portal.platformUrl), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(desktop, {
    redirect_uri: 'net.example.desktop:/callback',
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  await page.goto(url.href);
  // Any app could claim a private scheme: the person confirms, even for the family's own app.
  await expect(page.getByTestId('consent')).toContainText('Test Desktop wants to access your account');
  await page.getByTestId('consent-allow').click();
  const open = page.getByRole('link', { name: 'Open the desktop app' });
  await expect(open).toBeVisible();
  // The code left the address bar; the link holds it for the app.
  await expect(page).toHaveURL(`${portal.platformUrl}/callback-app`);
  const handed = new URL((await open.getAttribute('href'))!);
  expect(`${handed.protocol}${handed.pathname}`).toBe('net.example.desktop:/callback');
  const tokens = await oidc.authorizationCodeGrant(desktop, handed, { pkceCodeVerifier: verifier, expectedState: state });
  expect(tokens.claims()!.email).toBe(demo.email);
  await expectNoSeriousViolations(page);
  await snap(page, 'callback-app-handed-over');
  // A link that would lead anywhere but an app is refused (here on the password-manager brand).
  await page.goto(`${portal.lockerUrl}/callback-app#to=${encodeURIComponent('https://evil.example/')}`);
  await expect(page.getByTestId('callback-app-error')).toBeVisible();
  await expectNoSeriousViolations(page);
  await snap(page, 'callback-app-refused-locker');
});

test('a product that asks for two factors (acr_values loa:2) gets the second step; a wrong code is refused', async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  const secret = await turnOnTotp(page);

  // The portal session is one factor (its sign-in came before two-step was on): sign in again.
  await page.goto('http://127.0.0.1:5179/start?app=product&acr=urn%3Aportal%3Aloa%3A2');
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F.*prompt=login/);
  await page.getByLabel('Email or username').fill(demo.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  const step = page.getByTestId('second-factor-code');
  await step.getByRole('textbox').first().fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Verification code incorrect or expired')).toBeVisible();
  await expect(page.getByTestId('signed-in')).toHaveCount(0);

  // A code of the next period (this one turned two-step on).
  await step.getByRole('textbox').first().fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('signed-in')).toHaveText(`Signed in to product as ${demo.email}`);
  await expect(page.getByTestId('acr')).toHaveText('urn:portal:loa:2');
  await expect(page.getByTestId('amr')).toContainText('otp');
});

/** An activated account of its own (its mail read from this spec's SMTP peer). */
async function ownAccount(page: Page, label: string): Promise<{ email: string; password: string }> {
  const account = { email: uniqueEmail(label), password: 'Correct-Horse-Battery-9', fullName: 'Ada Lovelace' };
  const portalMail = { platformUrl: portal.platformUrl, lockerUrl: portal.lockerUrl, waitForMail: (to: string, options?: { subject?: RegExp }) => poll(() => mail.messages, to, options) };
  await createActivatedAccount(page.context().request, portalMail, account);
  return account;
}

/** Turns two-step (TOTP) on for the signed-in context; returns the secret. */
async function turnOnTotp(page: Page): Promise<string> {
  const request = page.context().request;
  const { secret } = (await (await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  const enabled = await request.post(`${portal.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret }) } });
  expect(enabled.status(), await enabled.text()).toBe(200);
  return secret;
}

test('signed out, two-step on: the password then the code on the portal pages, and back to the product (a wrong code refused)', async ({ page }) => {
  test.slow();
  const account = await ownAccount(page, 'oidc-totp');
  await signIn(page.context(), portal.platformUrl, account);
  const secret = await turnOnTotp(page);
  await page.context().clearCookies();

  await page.goto('http://127.0.0.1:5179/start?app=product');
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F/);
  await page.getByLabel('Email or username').fill(account.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const step = page.getByTestId('second-factor-code');
  await step.getByRole('textbox').first().fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Verification code incorrect or expired')).toBeVisible();
  await expect(page.getByTestId('signed-in')).toHaveCount(0);

  // The code of the next period (the current one turned two-step on).
  await step.getByRole('textbox').first().fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('signed-in')).toHaveText(`Signed in to product as ${account.email}`);
  await expect(page.getByTestId('amr')).toContainText('otp');
});

test('signed out, two-step on: a passkey on the portal sign-in page signs in to the product at once; a passkey the portal no longer knows is refused', async ({ page }) => {
  test.slow();
  await addVirtualAuthenticator(page);
  const account = await ownAccount(page, 'oidc-passkey');
  await signIn(page.context(), portal.platformUrl, account);
  await turnOnTotp(page);
  await page.goto(`${portal.platformUrl}/security/webauthn`);
  await page.getByTestId('create-passkey').click();
  await page.getByTestId('passkey-name').fill('Laptop');
  await page.getByTestId('passkey-create-submit').click();
  await expect(page.getByTestId('passkey-row')).toHaveCount(1);
  await page.context().clearCookies();

  // A user-verified passkey is both factors: no second step on the way back to the product.
  await page.goto('http://127.0.0.1:5179/start?app=product');
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F/);
  await page.locator('input[name="username"]').click(); // the browser's passkey autofill, answered by the authenticator
  await expect(page.getByTestId('signed-in')).toHaveText(`Signed in to product as ${account.email}`);
  await expect(page.getByTestId('amr')).toContainText('hwk');
  await expect(page.getByTestId('acr')).toHaveText('urn:portal:loa:2');

  // Removed on the portal, the authenticator's credential no longer signs in: the product gets no one.
  await page.goto(`${portal.platformUrl}/security/webauthn`);
  await page.getByRole('button', { name: 'Remove: Laptop' }).click();
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('passkeys-empty')).toBeVisible();
  await page.context().clearCookies();
  await page.goto('http://127.0.0.1:5179/start?app=product');
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F/);
  await page.locator('input[name="username"]').click();
  await expect(page.getByTestId('passkey-error')).toHaveText('Passkeys authentication failed');
  await expect(page.getByTestId('signed-in')).toHaveCount(0);
});

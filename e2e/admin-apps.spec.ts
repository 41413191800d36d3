import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { seriousViolations } from './support/axe';
import { chooseLanguage, chooseLanguageSaved, pageErrors, snap } from './support/helpers';
import { createActivatedAccount, expect, poll, uniqueEmail, type Portal } from './support/mail';
import { startPortalServer, type PortalServer } from './support/server';

/**
 * Apps and signing keys in the operators' console, on a portal of its own: the owner (named by
 * OPERATOR_EMAILS) registers an outside app and sees its secret once, rotates it (a new one,
 * shown once, gone after), disables the app, and rotates the signing keys. A support operator
 * reads the apps without a single change and is refused a secret rotation by the admin API.
 * At 1440 and 390 px, in both languages, with no sideways scroll and no serious accessibility issue.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const owner = { email: uniqueEmail('apps-owner'), password: PASSWORD, fullName: 'Olivia Owner' };
const support = { email: uniqueEmail('apps-support'), password: PASSWORD, fullName: 'Sam Support' };

let dataDir: string;
let peer: SmtpPeer;
let server: PortalServer;
let portal: Portal;
const secrets: Record<string, string> = {};
let clientId = '';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

async function start(env: Record<string, string> = {}): Promise<void> {
  server = await startPortalServer({ env: { NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'db'), SMTP_URL: peer.url, ...env } });
  portal = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
}

/** The time step of each account's last accepted code: the server takes a code once, so the next waits for a new step. */
const usedSteps = new Map<string, number>();
const stepNow = () => Math.floor(Date.now() / 30_000);
async function freshCode(email: string): Promise<string> {
  while (usedSteps.get(email) === stepNow()) await new Promise((resolve) => setTimeout(resolve, 500));
  usedSteps.set(email, stepNow());
  return generate({ secret: secrets[email]! });
}

/** Turns TOTP on through the API, as the security page does; returns the seed (the spec plays the authenticator app). */
async function turnOnTotp(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  expect((await request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } })).ok()).toBe(true);
  const { secret } = (await (await request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  usedSteps.set(account.email, stepNow());
  const enabled = await request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret }) } });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  await request.post(`${server.platformUrl}/v3/sso/logout`);
  return secret;
}

async function signInAs(context: BrowserContext, account: { email: string; password: string }): Promise<void> {
  const first = await context.request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(first.ok(), await first.text()).toBe(true);
  const body = (await first.json()) as { mfa_token?: string };
  if (body.mfa_token) {
    const second = await context.request.post(`${server.platformUrl}/v3/sso/auth/mfa`, { data: { mfa_token: body.mfa_token, code: await freshCode(account.email) } });
    expect(second.ok(), await second.text()).toBe(true);
  }
}

async function looksRight(page: Page, name: string): Promise<void> {
  // Judged as seen, not under the pointer: a hovered menu entry is another colour for a moment.
  await page.mouse.move(0, 0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, name);
}

/** Types the reason into the open dialog and confirms it. */
async function confirmWithReason(page: Page, reason: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  await dialog.getByTestId('action-reason').fill(reason);
  await dialog.getByTestId('action-confirm').click();
  await expect(dialog).toBeHidden();
}

test.beforeAll(async ({ playwright }) => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-apps-'));
  peer = await startSmtpPeer();
  await start();
  const request = await playwright.request.newContext();
  for (const account of [owner, support]) await createActivatedAccount(request, portal, account);
  for (const account of [owner, support]) secrets[account.email] = await turnOnTotp(request, account);
  await request.dispose();
  await server.close();
  await start({ OPERATOR_EMAILS: owner.email });
  const browser = await playwright.chromium.launch();
  const context = await browser.newContext();
  await signInAs(context, owner);
  const granted = await context.request.post(`${server.platformUrl}/v3/admin/operators`, { data: { email: support.email, role: 'support', reason: 'joins the operators' } });
  expect(granted.status(), await granted.text()).toBe(201);
  await browser.close();
});

test.afterAll(async () => {
  await server?.close();
  await peer?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('the owner registers an app (its secret shown once), rotates the secret and disables the app', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, owner);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${server.platformUrl}/admin`);
  await page.getByTestId('admin-nav-apps').click();
  await expect(page).toHaveURL(/\/admin\/apps$/);
  await expect(page.getByTestId('app-row').first()).toBeVisible();
  await looksRight(page, 'admin-apps-1440-en');

  await page.getByTestId('app-register').click();
  await page.getByTestId('app-new-name').fill('Partner Portal');
  await page.getByTestId('app-new-redirects').fill('https://partner.example/callback\nhttps://partner.example/other');
  await looksRight(page, 'admin-apps-register-1440-en');
  await page.getByTestId('app-new-submit').click();
  await confirmWithReason(page, 'Partner contract signed');

  const secret = page.getByTestId('app-secret-value');
  await expect(secret).toBeVisible();
  const first = (await secret.textContent())!.trim();
  expect(first).toMatch(/^[\w-]{40,}$/);
  const row = page.getByTestId('app-row').filter({ hasText: 'Partner Portal' });
  clientId = (await row.getAttribute('data-client-id'))!;
  expect(clientId).toMatch(/^app_/);
  await expect(page.getByTestId('app-details')).toBeVisible();
  await looksRight(page, 'admin-apps-registered-1440-en');

  // Shown once: gone after a reload, and in no answer the page reads.
  await page.reload();
  await expect(page.getByTestId('app-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(first);
  const read = await context.request.get(`${server.platformUrl}/v3/admin/apps/${clientId}`);
  expect(await read.text()).not.toContain(first);

  await page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-open').click();
  await page.getByTestId('app-rotate').click();
  await confirmWithReason(page, 'Secret pasted in a public chat');
  await expect(page.getByTestId('app-secret-value')).toBeVisible();
  const second = (await page.getByTestId('app-secret-value').textContent())!.trim();
  expect(second).toMatch(/^[\w-]{40,}$/);
  expect(second).not.toBe(first);
  await page.getByTestId('app-secret-dismiss').click();
  await expect(page.getByTestId('app-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(second);

  await page.getByTestId('app-disable').click();
  await confirmWithReason(page, 'Partner asked to pause the integration');
  await expect(page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-status')).toHaveText('Disabled');
  await expect(page.getByTestId('app-enable')).toBeVisible();

  // The operator audit log has each change with its reason, and no secret.
  const audit = await (await context.request.get(`${server.platformUrl}/v3/admin/audit?action=apps`)).text();
  expect(audit).toContain('Secret pasted in a public chat');
  for (const value of [first, second]) expect(audit).not.toContain(value);

  // Vietnamese on a phone: the same page, nothing sideways.
  await chooseLanguageSaved(page, 'vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-status')).toHaveText('Đã tắt');
  await looksRight(page, 'admin-apps-390-vi');
  await page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-open').click();
  await expect(page.getByTestId('app-details')).toBeVisible();
  await looksRight(page, 'admin-app-details-390-vi');
  await chooseLanguage(page, 'en');
  expect(errors).toEqual([]);
  await context.close();
});

test('the owner rotates the signing keys: new keys are published ahead of signing', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, owner);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${server.platformUrl}/admin/keys`);
  const rows = page.getByTestId('key-row');
  await expect(rows.first()).toBeVisible();
  const signing = await page.locator('[data-testid="key-row"][data-state="signing"]').count();
  expect(signing).toBe(2);
  await expect(page.locator('[data-testid="key-row"][data-state="signing"] [data-testid="key-drop"]')).toHaveCount(0);
  await looksRight(page, 'admin-keys-1440-en');

  await page.getByTestId('keys-rotate').click();
  await confirmWithReason(page, 'Yearly key rotation');
  await expect(page.locator('[data-testid="key-row"][data-state="published"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="key-row"][data-state="signing"]')).toHaveCount(2);
  await looksRight(page, 'admin-keys-rotated-1440-en');
  const published = (await (await context.request.get(`${server.platformUrl}/oidc/jwks`)).json()) as { keys: Array<{ kid: string }> };
  expect(published.keys).toHaveLength(4);

  await chooseLanguageSaved(page, 'vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.locator('[data-testid="key-row"][data-state="published"] [data-testid="key-state"]').first()).toHaveText('Đã công bố');
  await looksRight(page, 'admin-keys-390-vi');
  await chooseLanguage(page, 'en');
  expect(errors).toEqual([]);
  await context.close();
});

test('support reads the apps without any change, and the admin API refuses its rotation and the keys', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, support);
  const page = await context.newPage();
  await page.goto(`${server.platformUrl}/admin/apps`);
  await expect(page.getByTestId('app-row').filter({ hasText: 'Partner Portal' })).toBeVisible();
  await expect(page.getByTestId('app-register')).toHaveCount(0);
  await expect(page.getByTestId('admin-nav-keys')).toHaveCount(0);
  await page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-open').click();
  await expect(page.getByTestId('app-details')).toBeVisible();
  await expect(page.getByTestId('app-rotate')).toHaveCount(0);
  await expect(page.getByTestId('app-edit-submit')).toHaveCount(0);
  const rotate = await context.request.post(`${server.platformUrl}/v3/admin/apps/${clientId}/secret`, { data: { reason: 'support tries to rotate' } });
  expect([rotate.status(), ((await rotate.json()) as { code: string }).code]).toEqual([403, 'admin.forbidden']);
  const keys = await context.request.post(`${server.platformUrl}/v3/admin/signing-keys/rotate`, { data: { reason: 'support tries to rotate' } });
  expect(keys.status()).toBe(403);
  await looksRight(page, 'admin-apps-support-1440-en');
  await context.close();
});

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
 * People in the operators' console, on a portal of its own: the owner (named by
 * OPERATOR_EMAILS) makes a support and a finance operator. Support searches a person by the
 * start of their email, opens their page and locks the account with a reason: the person's
 * browser is signed out at once and their password no longer signs them in. Finance reads
 * the same page without a single action, and the admin API refuses finance's lock. At 1440
 * and 390 px, in both languages, with no sideways scroll and no serious accessibility issue.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const owner = { email: uniqueEmail('people-owner'), password: PASSWORD, fullName: 'Olivia Owner' };
const support = { email: uniqueEmail('people-support'), password: PASSWORD, fullName: 'Sam Support' };
const finance = { email: uniqueEmail('people-finance'), password: PASSWORD, fullName: 'Fran Finance' };
const target = { email: uniqueEmail('people-target'), password: PASSWORD, fullName: 'Trần Thị Target' };

let dataDir: string;
let peer: SmtpPeer;
let server: PortalServer;
let portal: Portal;
const secrets: Record<string, string> = {};

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

async function start(env: Record<string, string> = {}): Promise<void> {
  server = await startPortalServer({ env: { NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'db'), SMTP_URL: peer.url, ...env } });
  portal = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
}

/** Turns TOTP on through the API, as the security page does; returns the seed (the spec plays the authenticator app). */
async function turnOnTotp(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  expect((await request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } })).ok()).toBe(true);
  const setup = await request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/setup`);
  const { secret } = (await setup.json()) as { secret: string };
  usedSteps.set(account.email, stepNow());
  const enabled = await request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret }) } });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  await request.post(`${server.platformUrl}/v3/sso/logout`);
  return secret;
}

/** The time step of each account's last accepted code: the server takes a code once, so the next waits for a new step. */
const usedSteps = new Map<string, number>();
const stepNow = () => Math.floor(Date.now() / 30_000);
async function freshCode(email: string): Promise<string> {
  while (usedSteps.get(email) === stepNow()) await new Promise((resolve) => setTimeout(resolve, 500));
  usedSteps.set(email, stepNow());
  return generate({ secret: secrets[email]! });
}

/** Signs the browser in with the password and, when two-step is on, the authenticator's code. */
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
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, name);
}

test.beforeAll(async ({ playwright }) => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-people-'));
  peer = await startSmtpPeer();
  await start();
  const request = await playwright.request.newContext();
  for (const account of [owner, support, finance, target]) await createActivatedAccount(request, portal, account);
  for (const account of [owner, support, finance]) secrets[account.email] = await turnOnTotp(request, account);
  await request.dispose();
  await server.close();
  await start({ OPERATOR_EMAILS: owner.email });
  // The owner makes the support and finance operators (each with a reason, in the operator audit log).
  const context = await (await playwright.chromium.launch()).newContext();
  await signInAs(context, owner);
  for (const [account, role] of [[support, 'support'], [finance, 'finance']] as const) {
    const granted = await context.request.post(`${server.platformUrl}/v3/admin/operators`, { data: { email: account.email, role, reason: 'joins the operators' } });
    expect(granted.status(), await granted.text()).toBe(201);
  }
  await context.browser()?.close();
});

test.afterAll(async () => {
  await server?.close();
  await peer?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('support finds a person, opens their page and locks the account with a reason: the person is signed out at once', async ({ browser }) => {
  // The person, signed in in their own browser.
  const personContext = await browser.newContext();
  await signInAs(personContext, target);
  expect((await personContext.request.get(`${server.platformUrl}/v3/sso/me`)).status()).toBe(200);

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, support);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${server.platformUrl}/admin`);
  await page.getByTestId('admin-nav-people').click();
  await expect(page).toHaveURL(/\/admin\/people$/);
  await page.getByTestId('people-query').fill(target.email.slice(0, 14).toUpperCase());
  await page.getByTestId('people-search').click();
  const row = page.getByTestId('people-row').filter({ hasText: target.email });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('person-status')).toHaveAttribute('data-status', 'active');
  await looksRight(page, 'admin-people-search-1440-en');

  await row.getByTestId('people-open').click();
  await expect(page.getByTestId('admin-person')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: target.fullName })).toBeVisible();
  await expect(page.getByTestId('person-session').first()).toBeVisible();
  await looksRight(page, 'admin-person-1440-en');

  await page.getByTestId('person-lock').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  await dialog.getByTestId('action-reason').fill('Reported stolen by the owner on the phone');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'admin-person-lock-dialog-1440-en');
  await dialog.getByTestId('action-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('person-status')).toHaveAttribute('data-status', 'locked');
  await expect(page.getByTestId('person-locked-at')).toBeVisible();
  await expect(page.getByTestId('person-sessions-empty')).toBeVisible();
  await expect(page.getByTestId('person-unlock')).toBeVisible();

  // The person's browser is refused right after, and their password no longer signs them in.
  expect((await personContext.request.get(`${server.platformUrl}/v3/sso/me`)).status()).toBe(401);
  const again = await personContext.request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: target.email, password: target.password } });
  expect([again.status(), ((await again.json()) as { code: string }).code]).toEqual([403, 'auth.account_locked']);

  // Vietnamese on a phone: the same page, nothing sideways.
  await chooseLanguageSaved(page, 'vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('person-status')).toHaveText('Đã khóa');
  await looksRight(page, 'admin-person-390-vi');
  await page.goto(`${server.platformUrl}/admin/people`);
  await page.getByTestId('people-query').fill(target.email);
  await page.getByTestId('people-search').click();
  await expect(page.getByTestId('people-row').filter({ hasText: target.email })).toBeVisible();
  await looksRight(page, 'admin-people-search-390-vi');
  await chooseLanguage(page, 'en');
  expect(errors).toEqual([]);
  await context.close();
  await personContext.close();
});

test('finance reads a person without any action, and the admin API refuses its lock', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, finance);
  const page = await context.newPage();
  await page.goto(`${server.platformUrl}/admin/people`);
  await page.getByTestId('people-query').fill(target.email);
  await page.getByTestId('people-search').click();
  await page.getByTestId('people-row').filter({ hasText: target.email }).getByTestId('people-open').click();
  await expect(page.getByTestId('admin-person')).toBeVisible();
  await expect(page.getByTestId('person-actions')).toHaveCount(0);
  const userId = page.url().split('/').pop()!;
  const refused = await context.request.post(`${server.platformUrl}/v3/admin/people/${userId}/unlock`, { data: { reason: 'finance tries to unlock' } });
  expect([refused.status(), ((await refused.json()) as { code: string }).code]).toEqual([403, 'admin.forbidden']);
  await looksRight(page, 'admin-person-finance-1440-en');
  await context.close();
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { seriousViolations } from './support/axe';
import { pageErrors, snap } from './support/helpers';
import { createActivatedAccount, expect, poll, uniqueEmail, type Portal } from './support/mail';
import { operatorCommand, ROOT, startPortalServer, type PortalServer } from './support/server';

/**
 * Organizations, billing and the wallet in the operators' console, on a portal of its own: a
 * finance operator refunds a paid order and approves a researcher's payout (each with a reason,
 * on a fresh sign-in), a support operator verifies an organization's claimed domain by hand and
 * is refused a refund. Screens at 1440 and 390 px in both languages, with no sideways scroll
 * and no serious accessibility issue.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const BUGBOUNTY_SECRET = 'bugbounty-secret-of-the-e2e-0123456789';
const OTHER_SECRET = 'pwdmanager-secret-of-the-e2e-0123456789';
const DOMAIN = 'acme-money.example';
const owner = { email: uniqueEmail('money-owner'), password: PASSWORD, fullName: 'Olivia Owner' };
const finance = { email: uniqueEmail('money-finance'), password: PASSWORD, fullName: 'Fran Finance' };
const support = { email: uniqueEmail('money-support'), password: PASSWORD, fullName: 'Sam Support' };
const buyer = { email: uniqueEmail('money-buyer'), password: PASSWORD, fullName: 'Bao Buyer' };
const researcher = { email: uniqueEmail('money-researcher'), password: PASSWORD, fullName: 'Ada Researcher' };
const orgAdmin = { email: uniqueEmail('money-orgadmin'), password: PASSWORD, fullName: 'Anh Admin' };

let dataDir: string;
let peer: SmtpPeer;
let server: PortalServer;
let portal: Portal;
const secrets: Record<string, string> = {};
let orderNumber = '';

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

async function start(env: Record<string, string> = {}): Promise<void> {
  server = await startPortalServer({
    env: {
      NODE_ENV: 'development',
      DATA_DIR: path.join(dataDir, 'db'),
      SMTP_URL: peer.url,
      OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'payout-clients.json'),
      OAUTH_CLIENT_SECRETS: `test-bugbounty=${BUGBOUNTY_SECRET},test-pwdmanager=${OTHER_SECRET}`,
      PAYOUT_JOB_INTERVAL_SECONDS: '0',
      ...env,
    },
  });
  portal = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
}

const usedSteps = new Map<string, number>();
const stepNow = () => Math.floor(Date.now() / 30_000);
async function freshCode(email: string): Promise<string> {
  while (usedSteps.get(email) === stepNow()) await new Promise((resolve) => setTimeout(resolve, 500));
  usedSteps.set(email, stepNow());
  return generate({ secret: secrets[email]! });
}

async function turnOnTotp(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  expect((await request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } })).ok()).toBe(true);
  const { secret } = (await (await request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  usedSteps.set(account.email, stepNow());
  const enabled = await request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret }) } });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  await request.post(`${server.platformUrl}/v3/sso/logout`);
  return secret;
}

async function signInAs(context: BrowserContext, account: { email: string; password: string }, language: 'en' | 'vi' = 'en'): Promise<void> {
  const first = await context.request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(first.ok(), await first.text()).toBe(true);
  const body = (await first.json()) as { mfa_token?: string };
  if (body.mfa_token) {
    const second = await context.request.post(`${server.platformUrl}/v3/sso/auth/mfa`, { data: { mfa_token: body.mfa_token, code: await freshCode(account.email) } });
    expect(second.ok(), await second.text()).toBe(true);
  }
  await context.addCookies([{ name: 'lang', value: language, url: server.platformUrl }]);
}

async function looksRight(page: Page, name: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, name);
}

test.beforeAll(async ({ playwright }) => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-money-'));
  const env = { NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'db') };
  // The organization and its claimed (not verified) domain, made by the operator commands before the server opens the folder.
  await operatorCommand('organizations-admin', ['create', 'Acme Money', '--admin', orgAdmin.email], env);
  await operatorCommand('organizations-admin', ['domain', 'add', 'Acme Money', DOMAIN], env);
  peer = await startSmtpPeer();
  await start();
  const request = await playwright.request.newContext();
  for (const account of [owner, finance, support, buyer, researcher, orgAdmin]) await createActivatedAccount(request, portal, account);
  for (const account of [owner, finance, support]) secrets[account.email] = await turnOnTotp(request, account);

  // The buyer pays an order with the sandbox's success card.
  expect((await request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: buyer.email, password: PASSWORD } })).ok()).toBe(true);
  const token = ((await (await request.post(`${server.platformUrl}/v3/billing/sandbox/tokens`, { data: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' } })).json()) as { token: string }).token;
  const card = await request.post(`${server.platformUrl}/v3/sso/me/cards`, { data: { token, cardholder: 'Bao Buyer', city: 'Hanoi', state: 'HN', zip: '100000' } });
  expect(card.ok(), await card.text()).toBe(true);
  const bought = await request.post(`${server.platformUrl}/v3/sso/me/subscriptions`, { data: { plan: 'vulnscan.standard', months: 1, currency: 'VND', idempotency_key: `money-${Date.now()}` } });
  expect(bought.ok(), await bought.text()).toBe(true);
  const order = ((await bought.json()) as { order: { number: string; status: string } }).order;
  expect(order.status).toBe('paid');
  orderNumber = order.number;
  await request.post(`${server.platformUrl}/v3/sso/logout`);

  // The researcher chooses the USD wallet; the bug-bounty product posts an approved reward.
  expect((await request.post(`${server.platformUrl}/v3/sso/auth`, { data: { email: researcher.email, password: PASSWORD } })).ok()).toBe(true);
  expect((await request.put(`${server.platformUrl}/v3/sso/me/wallet/payout`, { data: { payout_currency: 'USD' } })).ok()).toBe(true);
  await request.post(`${server.platformUrl}/v3/sso/logout`);
  const grant = await request.post(`${server.platformUrl}/oidc/token`, {
    headers: { authorization: `Basic ${Buffer.from(`test-bugbounty:${BUGBOUNTY_SECRET}`).toString('base64')}` },
    form: { grant_type: 'client_credentials' },
  });
  const productToken = ((await grant.json()) as { access_token: string }).access_token;
  const posted = await request.post(`${server.platformUrl}/v3/bugbounty_platform/rewards`, {
    headers: { authorization: `Bearer ${productToken}` },
    data: { reward_id: `money-${Date.now()}`, researcher: researcher.email, program_alias: 'acme-web', currency: 'USD', amount_minor: '12500', status: 'approved' },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  await request.dispose();

  await server.close();
  await start({ OPERATOR_EMAILS: owner.email });
  const context = await (await playwright.chromium.launch()).newContext();
  await signInAs(context, owner);
  for (const [account, role] of [[finance, 'finance'], [support, 'support']] as const) {
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

test('finance refunds a paid order with a reason: once, and the order shows refunded', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, finance);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${server.platformUrl}/admin`);
  await page.getByTestId('admin-nav-billing').click();
  await expect(page).toHaveURL(/\/admin\/billing$/);
  await page.getByTestId('orders-query').fill(buyer.email);
  await page.getByTestId('orders-search').click();
  const row = page.getByTestId('orders-row').filter({ hasText: orderNumber });
  await expect(row).toBeVisible();
  await looksRight(page, 'admin-billing-1440-en');
  await row.getByTestId('order-refund').click();
  await page.getByTestId('action-reason').fill('Customer asked within 14 days');
  await page.getByTestId('action-confirm').click();
  await expect(row).toContainText('refunded');
  await expect(row.getByTestId('order-refund')).toHaveCount(0);
  // Asked again through the API (a second operator's tab): refused, still one refund.
  const orders = (await (await context.request.get(`${server.platformUrl}/v3/admin/billing/orders?q=${encodeURIComponent(orderNumber)}`)).json()) as { orders: Array<{ id: string; refunded_at: string | null }> };
  const again = await context.request.post(`${server.platformUrl}/v3/admin/billing/orders/${orders.orders[0]!.id}/refund`, { data: { reason: 'Twice by mistake' } });
  expect([again.status(), ((await again.json()) as { code: string }).code]).toEqual([409, 'admin.order_already_refunded']);
  expect(errors).toEqual([]);
  await context.close();
});

test('finance approves the payout queue entry with a reason: the researcher is paid and the ledger shows it', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await signInAs(context, finance, 'vi');
  const page = await context.newPage();
  await page.goto(`${server.platformUrl}/admin/wallet`);
  const row = page.getByTestId('payouts-row').filter({ hasText: researcher.email });
  await expect(row).toBeVisible();
  await looksRight(page, 'admin-wallet-390-vi');
  await row.getByTestId('payout-approve').click();
  await page.getByTestId('action-reason').fill('Report checked, pay before the 10th');
  await page.getByTestId('action-confirm').click();
  await expect(page.getByTestId('payouts-empty')).toBeVisible();
  await page.getByTestId('ledger-owner').fill(researcher.email);
  await page.getByTestId('ledger-search').click();
  await page.getByTestId('ledger-account').first().click();
  await expect(page.getByTestId('ledger-row').first()).toContainText('payout');
  await looksRight(page, 'admin-wallet-ledger-390-vi');
  await context.close();
});

test('support verifies a claimed domain by hand with a reason, and is refused a refund', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, support);
  const page = await context.newPage();
  await page.goto(`${server.platformUrl}/admin`);
  await page.getByTestId('admin-nav-organizations').click();
  await page.getByTestId('organizations-query').fill(DOMAIN);
  await page.getByTestId('organizations-search').click();
  await page.getByTestId('organization-open').filter({ hasText: 'Acme Money' }).click();
  const domain = page.getByTestId('domains-row').filter({ hasText: DOMAIN });
  await expect(domain).toBeVisible();
  await looksRight(page, 'admin-organization-1440-en');
  await domain.getByTestId('domain-verify').click();
  await page.getByTestId('action-reason').fill('Checked the registrar record with their IT desk');
  await page.getByTestId('action-confirm').click();
  await expect(domain).toContainText('Verified (by an operator)');

  // Support sees the orders without the refund button, and the API refuses the refund itself.
  await page.goto(`${server.platformUrl}/admin/billing`);
  await page.getByTestId('orders-search').click();
  await expect(page.getByTestId('orders-row').first()).toBeVisible();
  await expect(page.getByTestId('order-refund')).toHaveCount(0);
  const orders = (await (await context.request.get(`${server.platformUrl}/v3/admin/billing/orders`)).json()) as { orders: Array<{ id: string }> };
  const refused = await context.request.post(`${server.platformUrl}/v3/admin/billing/orders/${orders.orders[0]!.id}/refund`, { data: { reason: 'Support tries a refund' } });
  expect([refused.status(), ((await refused.json()) as { code: string }).code]).toEqual([403, 'admin.forbidden']);
  await context.close();
});

test('the three pages at 1440 and 390 px, in English and Vietnamese', async ({ browser }) => {
  for (const language of ['en', 'vi'] as const) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signInAs(context, owner, language);
    const page = await context.newPage();
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [pathName, testId] of [
        ['organizations', 'admin-organizations'],
        ['billing', 'admin-billing'],
        ['wallet', 'admin-wallet'],
      ] as const) {
        await page.goto(`${server.platformUrl}/admin/${pathName}`);
        await expect(page.getByTestId(testId)).toBeVisible();
        await looksRight(page, `admin-${pathName}-${width}-${language}`);
      }
    }
    await context.close();
  }
});

import path from 'node:path';
import { test } from '@playwright/test';
import { pageErrors } from './support/helpers';
import { expect, uniqueEmail } from './support/mail';
import { CONSOLE_OWNER, ConsolePortal, looksRight } from './support/operators';
import { operatorCommand, ROOT } from './support/server';

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
const owner = CONSOLE_OWNER;
const finance = { email: uniqueEmail('money-finance'), password: PASSWORD, fullName: 'Fran Finance' };
const support = { email: uniqueEmail('money-support'), password: PASSWORD, fullName: 'Sam Support' };
const buyer = { email: uniqueEmail('money-buyer'), password: PASSWORD, fullName: 'Bao Buyer' };
const researcher = { email: uniqueEmail('money-researcher'), password: PASSWORD, fullName: 'Ada Researcher' };
const orgAdmin = { email: uniqueEmail('money-orgadmin'), password: PASSWORD, fullName: 'Anh Admin' };

let orderNumber = '';

const consolePortal = new ConsolePortal('money', {
  OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'payout-clients.json'),
  OAUTH_CLIENT_SECRETS: `test-bugbounty=${BUGBOUNTY_SECRET},test-pwdmanager=${OTHER_SECRET}`,
  PAYOUT_JOB_INTERVAL_SECONDS: '0',
});

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test.beforeAll(async ({ playwright }) => {
  await consolePortal.prepare();
  // The organization and its claimed (not verified) domain, made by the operator commands before the server opens the folder.
  await operatorCommand('organizations-admin', ['create', 'Acme Money', '--admin', orgAdmin.email], consolePortal.dataEnv);
  await operatorCommand('organizations-admin', ['domain', 'add', 'Acme Money', DOMAIN], consolePortal.dataEnv);
  await consolePortal.setUp(playwright, {
    people: [finance, support, buyer, researcher, orgAdmin],
    twoStep: [finance, support],
    grants: [
      [finance, 'finance'],
      [support, 'support'],
    ],
    asPeople: async (request) => {
      // The buyer pays an order with the sandbox's success card.
      expect((await request.post(`${consolePortal.url}/v3/sso/auth`, { data: { email: buyer.email, password: PASSWORD } })).ok()).toBe(true);
      const token = ((await (await request.post(`${consolePortal.url}/v3/billing/sandbox/tokens`, { data: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' } })).json()) as { token: string }).token;
      const card = await request.post(`${consolePortal.url}/v3/sso/me/cards`, { data: { token, cardholder: 'Bao Buyer', city: 'Hanoi', state: 'HN', zip: '100000' } });
      expect(card.ok(), await card.text()).toBe(true);
      const bought = await request.post(`${consolePortal.url}/v3/sso/me/subscriptions`, { data: { plan: 'vulnscan.standard', months: 1, currency: 'VND', idempotency_key: `money-${Date.now()}` } });
      expect(bought.ok(), await bought.text()).toBe(true);
      const order = ((await bought.json()) as { order: { number: string; status: string } }).order;
      expect(order.status).toBe('paid');
      orderNumber = order.number;
      await request.post(`${consolePortal.url}/v3/sso/logout`);

      // The researcher chooses the USD wallet; the bug-bounty product posts an approved reward.
      expect((await request.post(`${consolePortal.url}/v3/sso/auth`, { data: { email: researcher.email, password: PASSWORD } })).ok()).toBe(true);
      expect((await request.put(`${consolePortal.url}/v3/sso/me/wallet/payout`, { data: { payout_currency: 'USD' } })).ok()).toBe(true);
      await request.post(`${consolePortal.url}/v3/sso/logout`);
      const grant = await request.post(`${consolePortal.url}/oidc/token`, {
        headers: { authorization: `Basic ${Buffer.from(`test-bugbounty:${BUGBOUNTY_SECRET}`).toString('base64')}` },
        form: { grant_type: 'client_credentials' },
      });
      const productToken = ((await grant.json()) as { access_token: string }).access_token;
      const posted = await request.post(`${consolePortal.url}/v3/bugbounty_platform/rewards`, {
        headers: { authorization: `Bearer ${productToken}` },
        data: { reward_id: `money-${Date.now()}`, researcher: researcher.email, program_alias: 'acme-web', currency: 'USD', amount_minor: '12500', status: 'approved' },
      });
      expect(posted.status(), await posted.text()).toBe(201);
    },
  });
});

test.afterAll(async () => {
  await consolePortal.close();
});

test('finance refunds a paid order with a reason: once, and the order shows refunded', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, finance);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${consolePortal.url}/admin`);
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
  const orders = (await (await context.request.get(`${consolePortal.url}/v3/admin/billing/orders?q=${encodeURIComponent(orderNumber)}`)).json()) as { orders: Array<{ id: string; refunded_at: string | null }> };
  const again = await context.request.post(`${consolePortal.url}/v3/admin/billing/orders/${orders.orders[0]!.id}/refund`, { data: { reason: 'Twice by mistake' } });
  expect([again.status(), ((await again.json()) as { code: string }).code]).toEqual([409, 'admin.order_already_refunded']);
  expect(errors).toEqual([]);
  await context.close();
});

test('finance approves the payout queue entry with a reason: the researcher is paid and the ledger shows it', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await consolePortal.signInAs(context, finance, 'vi');
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin/wallet`);
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
  await consolePortal.signInAs(context, support);
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin`);
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
  await page.goto(`${consolePortal.url}/admin/billing`);
  await page.getByTestId('orders-search').click();
  await expect(page.getByTestId('orders-row').first()).toBeVisible();
  await expect(page.getByTestId('order-refund')).toHaveCount(0);
  const orders = (await (await context.request.get(`${consolePortal.url}/v3/admin/billing/orders`)).json()) as { orders: Array<{ id: string }> };
  const refused = await context.request.post(`${consolePortal.url}/v3/admin/billing/orders/${orders.orders[0]!.id}/refund`, { data: { reason: 'Support tries a refund' } });
  expect([refused.status(), ((await refused.json()) as { code: string }).code]).toEqual([403, 'admin.forbidden']);
  await context.close();
});

test('the three pages at 1440 and 390 px, in English and Vietnamese', async ({ browser }) => {
  for (const language of ['en', 'vi'] as const) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await consolePortal.signInAs(context, owner, language);
    const page = await context.newPage();
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [pathName, testId] of [
        ['organizations', 'admin-organizations'],
        ['billing', 'admin-billing'],
        ['wallet', 'admin-wallet'],
      ] as const) {
        await page.goto(`${consolePortal.url}/admin/${pathName}`);
        await expect(page.getByTestId(testId)).toBeVisible();
        await looksRight(page, `admin-${pathName}-${width}-${language}`);
      }
    }
    await context.close();
  }
});

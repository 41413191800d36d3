import type { APIRequestContext, Page } from '@playwright/test';
import { settledViolations } from './support/axe';
import { snap } from './support/helpers';
import { open, watchActivity } from './support/screens';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';

/**
 * Every section shows its data, in Chromium against the real server: the wallet overview lists
 * the person's card and subscription (read-only, a link to Billing), the USD wallet has its own
 * page (balance, where USD comes from, a refused transfer said once), and Privacy's Authorized
 * apps says which apps may use the account with a link to Account, which owns that list. Each
 * page at 1440 and 390 px, in English and Vietnamese, in both brands, without sideways scroll
 * and without serious axe findings.
 */
const PASSWORD = 'Orchid-Lantern-Harbor-58';

/** A card (the sandbox's success number) and the Premium trial, through the API as the billing page does. */
async function cardAndTrial(request: APIRequestContext, origin: string) {
  const token = ((await (await request.post(`${origin}/v3/billing/sandbox/tokens`, { data: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' } })).json()) as { token: string }).token;
  const card = await request.post(`${origin}/v3/sso/me/cards`, { data: { token, cardholder: 'Ada Lovelace', city: 'Hanoi', state: 'HN', zip: '100000' } });
  expect(card.ok(), await card.text()).toBe(true);
  const trial = await request.post(`${origin}/v3/sso/me/subscriptions`, { data: { plan: 'pwdmanager.premium', months: 12, currency: 'USD', idempotency_key: `usd-${Date.now()}` } });
  expect(trial.ok(), await trial.text()).toBe(true);
}

/** The page fits the width (no sideways scroll) and has no serious axe finding. */
async function looksRight(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(await settledViolations(page), name).toEqual([]);
  await snap(page, name);
}

/**
 * Each changed page at both widths in the current language. The first page of each width is
 * loaded; the others are opened as a link opens them (screens.ts `open`, which waits until each
 * has finished), without loading the app and axe into the page again.
 */
async function everyPage(page: Page, origin: string, brand: string, language: string) {
  const activity = await watchActivity(page);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    let first = true;
    for (const [path, ready] of [
      ['/wallet', 'wallet-subscription'],
      ['/wallet/usd', 'wallet-balance'],
      ['/privacy', 'privacy-apps-summary'],
      ['/billing', 'subscription-row'],
    ] as const) {
      // Generous: on a loaded machine a page's data has taken longer than the default 10 s.
      if (first) await page.goto(`${origin}${path}`);
      else await open(page, `${origin}${path}`, activity, 30_000);
      first = false;
      await expect(page.getByTestId(ready).first()).toBeVisible({ timeout: 30_000 });
      await looksRight(page, `h4-${brand}-${path.slice(1).replace('/', '-')}-${language}-${width}`);
    }
  }
}

// One person for the three tests (serial, one worker): the pages are walked per brand, each test with its own time.
test.describe.configure({ mode: 'serial' });
const ada = uniqueEmail('usd-ada');
const bob = uniqueEmail('usd-bob');

test('the wallet shows the cards and subscriptions, the USD page, and privacy names the apps', async ({ portal, context, page }) => {
  test.setTimeout(600_000);
  await createActivatedAccount(context.request, portal, { email: ada, password: PASSWORD, fullName: 'Ada Lovelace' });
  await createActivatedAccount(context.request, portal, { email: bob, password: PASSWORD, fullName: 'Bob Builder' });
  const signedIn = await context.request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: ada, password: PASSWORD } });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.platformUrl }]);
  await cardAndTrial(context.request, portal.platformUrl);

  // The overview: the card and the trial, read-only, with the way to Billing.
  await page.goto(`${portal.platformUrl}/wallet`);
  const card = page.getByTestId('wallet-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Visa •••• 4242');
  await expect(card).toContainText('Default');
  await expect(card).toContainText('Expires 12/2030');
  const subscription = page.getByTestId('wallet-subscription');
  await expect(subscription).toHaveCount(1);
  await expect(subscription).toContainText('Locker Password Manager Premium');
  await expect(subscription).toContainText('Active');
  await expect(subscription).toContainText('Trial ends');
  await expect(page.getByTestId('wallet-cards').getByRole('button')).toHaveCount(0);
  await page.getByTestId('wallet-subscriptions-manage').click();
  await expect(page).toHaveURL(/\/billing$/);
  await page.goto(`${portal.platformUrl}/wallet`);

  // The USD page from its balance card: the balance, where USD comes from, a refused transfer said once.
  await page.getByTestId('balance-USD').getByRole('link').click();
  await expect(page).toHaveURL(/\/wallet\/usd$/);
  await expect(page.getByRole('heading', { name: 'USD wallet', level: 1 })).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toHaveText('$0');
  await expect(page.getByText('Bug-bounty rewards paid in USD')).toBeVisible();
  await expect(page.getByTestId('wallet-usd-payout-link')).toHaveAttribute('href', '/wallet/payout');
  const form = page.getByTestId('transfer-form');
  await form.getByLabel('Recipient').fill(bob);
  await form.getByLabel('Amount').fill('5.25');
  await form.getByTestId('transfer-submit').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your balance is too low for this transfer' })).toBeVisible();
  await expect(page.getByText('Your balance is too low for this transfer')).toHaveCount(1);
  await expect(page.getByTestId('transactions-empty')).toBeVisible();

  // Privacy: which apps may use the account (none yet), and the way to Account, which lists them with Revoke.
  await page.goto(`${portal.platformUrl}/privacy`);
  await expect(page.getByTestId('privacy-apps-summary')).toHaveText('No outside app can use your account.');
  await page.getByTestId('privacy-apps-manage').click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('connected-apps')).toBeVisible();

  // Every changed page, both widths, in English.
  await everyPage(page, portal.platformUrl, 'platform', 'en');
});

test('the same pages in Vietnamese', async ({ portal, context, page }) => {
  test.setTimeout(600_000);
  expect((await context.request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: ada, password: PASSWORD } })).status()).toBe(200);
  await context.addCookies([{ name: 'lang', value: 'vi', url: portal.platformUrl }]);
  await page.goto(`${portal.platformUrl}/wallet/usd`);
  await expect(page.getByRole('heading', { name: 'Ví USD', level: 1 })).toBeVisible({ timeout: 30_000 });
  await everyPage(page, portal.platformUrl, 'platform', 'vi');
});

test('the same pages in the Locker brand, both languages', async ({ portal, context, page }) => {
  test.setTimeout(600_000);
  // The Locker brand: its own host (Chromium resolves locker.localhost; the sign-in is made there).
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.lockerUrl }]);
  await page.goto(`${portal.lockerUrl}/login/explore`);
  const status = await page.evaluate(
    async (body) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { email: ada, password: PASSWORD },
  );
  expect(status).toBe(200);
  await page.goto(`${portal.lockerUrl}/wallet`);
  expect(await page.locator('html').getAttribute('data-brand')).toBe('locker');
  await everyPage(page, portal.lockerUrl, 'locker', 'en');
  await context.addCookies([{ name: 'lang', value: 'vi', url: portal.lockerUrl }]);
  await everyPage(page, portal.lockerUrl, 'locker', 'vi');
});

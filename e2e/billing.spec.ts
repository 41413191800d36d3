import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from '@playwright/test';
import { extractText } from 'unpdf';
import { issueLicense } from '../packages/server/src/modules/billing/licenses';
import { snap } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';
import { E2E_APPSUMO_LICENSE_SECRET } from './support/server';

/**
 * Billing in a real browser against the real server with the built-in sandbox processor:
 * add a card (each card message first, then a decline), start a trial and see Active,
 * upgrade with a promo code, download the invoice and read its text, a declined charge,
 * remove the default card and then the last one (its subscription cancelled); the business
 * trial (signed in only) with 7014 and 7013; an AppSumo code twice.
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';

async function signIn(context: BrowserContext, origin: string, email: string, language: 'en' | 'vi' = 'en') {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
}

async function fillCard(page: Page, card: { number?: string; expiry?: string; cvc?: string }) {
  const form = page.getByTestId('add-card-form');
  if (card.number !== undefined) await form.getByLabel('Card number').fill(card.number);
  if (card.expiry !== undefined) await form.getByLabel('Expiration (MM/YY)').fill(card.expiry);
  if (card.cvc !== undefined) await form.getByLabel('Security code').fill(card.cvc);
}

async function addCard(page: Page, number: string, options: { makeDefault?: boolean } = {}) {
  await page.getByTestId('add-card').click();
  const form = page.getByTestId('add-card-form');
  await fillCard(page, { number, expiry: '12/30', cvc: '123' });
  await form.getByLabel('Cardholder name').fill('Ada Lovelace');
  await form.getByLabel('City').fill('Hanoi');
  await form.getByLabel('State').fill('HN');
  await form.getByLabel('ZIP code').fill('100000');
  if (options.makeDefault) await form.getByLabel('Make this my default card').check();
  await page.getByTestId('save-card').click();
}

async function choose(page: Page, testId: string, option: RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

test.describe.configure({ mode: 'serial' });

test('cards, a trial, an upgrade with a promo code, the invoice, a decline, card removal, the business trial and an AppSumo code', async ({ portal, context, page, browser }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('billing');
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  await signIn(context, portal.platformUrl, email);
  await page.goto(`${portal.platformUrl}/billing`);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  // Without a card: a hint, nothing in red until Pay is pressed.
  await expect(page.getByTestId('checkout-card-hint')).toHaveText('Subscribing needs a payment card: add one under Payment methods above.');
  await expect(page.getByTestId('checkout-failure')).toHaveCount(0);
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-failure')).toHaveText('Add a payment card before subscribing.');
  // Each plan named once, at the catalogue's stated price.
  await page.getByTestId('checkout-plan').click();
  await expect(page.getByRole('option', { name: 'WhiteHub Bug Bounty · $4,790/yr', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Locker Password Manager Premium · from $1.29/mo', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  // Each card message, from the page's own checks (card-validator).
  await page.getByTestId('add-card').click();
  const form = page.getByTestId('add-card-form');
  await page.getByTestId('save-card').click();
  await expect(form.getByText('Your card number is incomplete.')).toBeVisible();
  await expect(form.getByText("Your card's security code is incomplete.")).toBeVisible();
  await expect(form.getByText("Your card's expiration date is incomplete.")).toBeVisible();
  await expect(form.getByText('This field may not be blank.').first()).toBeVisible();
  await fillCard(page, { number: '4242 4242 4242 4241', expiry: '12/99', cvc: '123' });
  await page.getByTestId('save-card').click();
  await expect(form.getByText('Your card number is invalid.')).toBeVisible();
  await expect(form.getByText("Your card's expiration year is invalid.")).toBeVisible();
  await fillCard(page, { number: '4242 4242', expiry: '12/20' });
  await page.getByTestId('save-card').click();
  await expect(form.getByText('Your card number is incomplete.')).toBeVisible();
  await expect(form.getByText("Your card's expiration year is in the past.")).toBeVisible();
  await snap(page, 'billing-card-messages');
  await page.reload();

  // A declined card: the generic decline.
  await addCard(page, '4000 0000 0000 0002');
  await expect(page.getByTestId('card-failure')).toHaveText('Your card was declined.');
  await page.reload();

  await addCard(page, '4242 4242 4242 4242');
  await expect(page.getByText('Card added')).toBeVisible();
  await expect(page.getByTestId('card-row')).toHaveCount(1);
  await expect(page.getByTestId('card-row').first()).toContainText('Visa •••• 4242');
  await expect(page.getByTestId('card-row').first()).toContainText('Default');

  // A 14-day trial of Premium: shown as Active.
  await choose(page, 'checkout-plan', /Locker Password Manager Premium/);
  await expect(page.getByTestId('checkout-due')).toHaveText('$0');
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByText('Subscription updated')).toBeVisible();
  const premium = page.getByTestId('subscription-row').filter({ hasText: 'Premium' });
  await expect(premium.getByTestId('subscription-status')).toHaveText('Active');
  await expect(premium.getByTestId('subscription-plan')).toHaveText('Locker Password Manager Premium');
  await expect(premium.getByTestId('subscription-trial')).toContainText('Trial ends');
  await expect(premium.getByTestId('subscription-trial-card')).toHaveText('Card on file: Visa •••• 4242');
  await expect(premium.getByTestId('subscription-price')).toHaveText('$15.48/yr');

  // Upgrade to Family with a promo code: the totals before paying, then the order.
  await premium.getByRole('button', { name: 'Change plan' }).click();
  await expect(page.getByRole('heading', { name: 'Change plan' })).toBeVisible();
  await page.getByTestId('promo-code').fill('NOPE');
  await page.getByTestId('apply-promo').click();
  await expect(page.getByText('Promo code not valid')).toBeVisible();
  await page.getByTestId('promo-code').fill('welcome10');
  await page.getByTestId('apply-promo').click();
  await expect(page.getByTestId('checkout-discount')).toHaveText('−$7.19');
  await expect(page.getByTestId('checkout-due')).toHaveText('$64.69');
  await page.getByTestId('checkout-pay').click();
  // The toast of the change above may still show: the newest one counts.
  await expect(page.getByText('Subscription updated').last()).toBeVisible();
  const family = page.getByTestId('subscription-row').filter({ hasText: 'Family' });
  await expect(family.getByTestId('subscription-status')).toHaveText('Active');
  const order = page.getByTestId('order-row').first();
  await expect(order).toContainText('$64.69');
  await expect(order).toContainText('Paid');
  await snap(page, 'billing-after-upgrade');

  // The invoice: a real PDF whose text names the order.
  const [download] = await Promise.all([page.waitForEvent('download'), order.getByTestId('download-invoice').click()]);
  const number = (await order.locator('td').first().innerText()).trim();
  expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  const { text } = await extractText(new Uint8Array(await readFile((await download.path())!)), { mergePages: true });
  expect(text).toContain('Invoice');
  expect(text).toContain(number);
  expect(text).toContain('Family');
  expect(text).toContain('WELCOME10');
  expect(text).toContain('Total: $64.69');

  // A card that saves but whose charges are declined, made the default: a purchase is refused.
  await addCard(page, '4000 0000 0000 0341', { makeDefault: true });
  await expect(page.getByTestId('card-row')).toHaveCount(2);
  await choose(page, 'checkout-plan', /Locker Secrets Manager Pro/);
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-failure')).toHaveText('Your card was declined.');

  // The business trial is the signed-in person's own: a signed-out visitor is sent to sign in and back.
  const visitor = await browser.newContext();
  const trialPage = await visitor.newPage();
  await trialPage.goto(`${portal.platformUrl}/register/locker-enterprise-trial`);
  await expect(trialPage).toHaveURL(/\/login\?next=%2Fregister%2Flocker-enterprise-trial/);
  const startTrial = async (on: Page, trialEmail: string) => {
    await on.goto(`${portal.platformUrl}/register/locker-enterprise-trial`);
    // The account's email, not one to type.
    await expect(on.getByLabel('Work email')).toHaveValue(trialEmail);
    await on.getByLabel('Company name').fill('AcmeCorp');
    await on.getByLabel('Your full name').fill('Ada Admin');
    await on.getByTestId('business-trial-submit').click();
  };
  // An account with a plan of the password manager is refused (7014).
  await startTrial(page, email);
  await expect(page.getByTestId('business-trial-error')).toHaveText(
    'A Locker account for this email exists. Cancel the current plan or use another email to register the business plan',
  );
  // A new account starts it once (it owns the organization), then 7013.
  const company = uniqueEmail('company');
  await createActivatedAccount(visitor.request, portal, { email: company, password: PASSWORD, fullName: 'Ada Admin' });
  await signIn(visitor, portal.platformUrl, company);
  await startTrial(trialPage, company);
  await expect(trialPage.getByTestId('business-trial-started')).toContainText(company);
  await startTrial(trialPage, company);
  await expect(trialPage.getByTestId('business-trial-error')).toHaveText(`The trial plan was applied for ${company}`);
  await visitor.close();

  // Removing the default card makes the most recent other card the default. The dialog says the
  // spec's rule: removing a card cancels all subscriptions, here the Family one.
  await page.goto(`${portal.platformUrl}/billing`);
  await page.getByTestId('card-row').filter({ hasText: '0341' }).getByRole('button', { name: /Remove/ }).click();
  await expect(page.getByTestId('remove-card-rule')).toHaveText('Removing a card cancels all subscriptions.');
  await expect(page.getByTestId('remove-card-warning')).toHaveText('You have 1 subscription running: it will be cancelled.');
  await snap(page, 'billing-remove-card-en');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('card-row')).toHaveCount(1);
  await expect(page.getByTestId('card-row').first()).toContainText('Default');
  await page.getByTestId('card-row').first().getByRole('button', { name: /Remove/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('card-row')).toHaveCount(0);
  await expect(family.getByTestId('subscription-status')).toHaveText('Canceled');

  // The same page in Vietnamese.
  await context.addCookies([{ name: 'lang', value: 'vi', url: portal.platformUrl }]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Thanh toán', level: 1 })).toBeVisible();
  await expect(family.getByTestId('subscription-status')).toHaveText('Đã hủy');
  await snap(page, 'billing-vi');
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.platformUrl }]);

  // An AppSumo code grants its lifetime plan once.
  const code = issueLicense({ plan: 'pwdmanager.lifetime', expiresAt: Math.floor(Date.now() / 1000) + 86_400 }, E2E_APPSUMO_LICENSE_SECRET);
  await page.goto(`${portal.platformUrl}/confirmation/app/${encodeURIComponent(code)}`);
  await expect(page.getByTestId('license-activated')).toHaveText('Premium (lifetime) is now active on your account.');
  await page.reload();
  await expect(page.getByTestId('license-failed')).toHaveText('The license is either not valid or has expired');
});

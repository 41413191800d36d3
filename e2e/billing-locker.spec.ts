import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { createActivatedAccount, uniqueEmail, type Portal } from './support/mail';
import { startOrganizationPortal, type OrganizationPortal } from './support/organizations';

/**
 * Billing on the password manager's own brand (locker.localhost) in Chromium: add a card,
 * start the Premium trial, see it Active; and the business trial refusing a signed-in member
 * of an enterprise (7015). The enterprise is made with `npm run organizations` before the spec's
 * own server starts, as an operator does.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const OWNER = uniqueEmail('ent-owner');
const MEMBER = uniqueEmail('ent-member');

let portal: Portal;
let organization: OrganizationPortal;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  organization = await startOrganizationPortal('billing-locker', { name: 'Enterprise Co', owner: OWNER, members: [MEMBER] });
  ({ portal } = organization);
});

test.afterAll(() => organization?.close());

test('locker brand: add a card, start the Premium trial, see it Active (both languages)', async ({ context, page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('locker-billing');
  // One database behind both brands: the account is made through the platform host (Node cannot resolve locker.localhost; Chromium can).
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.lockerUrl }]);
  await page.goto(`${portal.lockerUrl}/login/explore`);
  const status = await page.evaluate(
    async (body) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { email, password: PASSWORD },
  );
  expect(status).toBe(200);
  await page.goto(`${portal.lockerUrl}/billing`);
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  expect(await page.locator('html').getAttribute('data-brand')).toBe('locker');

  await page.getByTestId('add-card').click();
  const form = page.getByTestId('add-card-form');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiration (MM/YY)').fill('12/30');
  await form.getByLabel('Security code').fill('123');
  await form.getByLabel('Cardholder name').fill('Ada Lovelace');
  await form.getByLabel('City').fill('Hanoi');
  await form.getByLabel('State').fill('HN');
  await form.getByLabel('ZIP code').fill('100000');
  await expectNoSeriousViolations(page);
  await page.getByTestId('save-card').click();
  await expect(page.getByText('Card added')).toBeVisible();
  await expect(page.getByTestId('card-row').first()).toContainText('Visa •••• 4242');

  await page.getByTestId('checkout-plan').click();
  await page.getByRole('option', { name: /Locker Password Manager Premium/ }).click();
  await expect(page.getByTestId('checkout-due')).toHaveText('$0');
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByText('Subscription updated')).toBeVisible();
  const premium = page.getByTestId('subscription-row').filter({ hasText: 'Premium' });
  await expect(premium.getByTestId('subscription-status')).toHaveText('Active');
  await expect(premium).toContainText('Trial ends');
  await expectNoSeriousViolations(page);
  await snap(page, 'billing-locker-en');

  await context.addCookies([{ name: 'lang', value: 'vi', url: portal.lockerUrl }]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Thanh toán', level: 1 })).toBeVisible();
  await expect(premium.getByTestId('subscription-status')).toHaveText('Đang hoạt động');
  await expectNoSeriousViolations(page);
  await snap(page, 'billing-locker-vi');
});

test("the business trial refuses a member of an enterprise (7015), in both brands' page and both languages", async ({ browser }) => {
  // Four fresh contexts, each solving a captcha: over 30 s on a loaded machine.
  test.slow();
  // The trial is the signed-in person's own: the member has an account and is signed in.
  const account = await browser.newContext();
  await createActivatedAccount(account.request, portal, { email: MEMBER, password: PASSWORD, fullName: 'Mia Member' });
  await account.close();
  for (const [origin, brand] of [
    [portal.lockerUrl, 'locker'],
    [portal.platformUrl, 'platform'],
  ] as const) {
    for (const language of ['en', 'vi'] as const) {
      const visitor = await browser.newContext();
      await visitor.addCookies([{ name: 'lang', value: language, url: origin }]);
      const page = await visitor.newPage();
      await page.goto(`${origin}/login/explore`);
      const status = await page.evaluate(
        async (body) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
        { email: MEMBER, password: PASSWORD },
      );
      expect(status).toBe(200);
      await page.goto(`${origin}/register/locker-enterprise-trial`);
      await page.getByTestId('business-trial-submit').waitFor();
      // The same form in either language: its fields by what they hold; the email is the account's.
      await expect(page.locator('input[autocomplete=email]')).toHaveValue(MEMBER);
      await page.locator('input[autocomplete=organization]').fill('EnterpriseCo');
      await page.locator('input[autocomplete=name]').fill('Mia Member');
      await page.getByTestId('business-trial-submit').click();
      const error = page.getByTestId('business-trial-error');
      if (language === 'en') await expect(error).toHaveText(`${MEMBER} is in an Enterprise, leave it or use another email`);
      else await expect(error).toHaveText(`${MEMBER} đang thuộc một doanh nghiệp (Enterprise), hãy rời doanh nghiệp đó hoặc dùng email khác`);
      await expectNoSeriousViolations(page);
      await snap(page, `business-trial-7015-${brand}-${language}`);
      await visitor.close();
    }
  }
});

import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';

/**
 * Billing as a person sees it, with a paid and a failed order on file: at 1280 px (the width the
 * Failed badge was once cut at), 1440 px and a 390 px phone, in both brands and languages. No
 * badge in the orders is cut, no page scrolls sideways, and axe finds nothing serious. The
 * shell's notification list opens in the brand's colour (Locker's green on its host).
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';
/** Locker's primary shade (app/theme.ts). */
const LOCKER_GREEN = 'rgb(33, 119, 47)';

/** A call of the portal's API from inside the page (its session cookie; Chromium resolves locker.localhost, Node may not). */
const fromPage = (page: Page, path: string, body?: object) =>
  page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(`/v3${path}`, { method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
    },
    { path, body },
  );

/** A sandbox card saved to the account (its number decides how its charges go). */
async function saveCard(page: Page, number: string, makeDefault: boolean) {
  const token = await fromPage(page, '/billing/sandbox/tokens', { number, exp_month: 12, exp_year: 2030, cvc: '123' });
  expect(token.status).toBe(201);
  const card = await fromPage(page, '/sso/me/cards', { token: token.body!.token, cardholder: 'Ada Lovelace', city: 'Hanoi', state: 'HN', zip: '100000', make_default: makeDefault });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
}

async function signInInBrowser(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/login`);
  const status = await page.evaluate(async (account) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) })).status, { email, password: PASSWORD });
  expect(status).toBe(200);
}

/** Badges (and their labels) in the orders table whose text does not fit. */
const cutBadges = (page: Page) =>
  page.getByTestId('orders-table').evaluate((table) =>
    Array.from(table.querySelectorAll('.mantine-Badge-root, .mantine-Badge-label')).filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.textContent),
  );

test('orders with a paid and a failed one, in both brands and languages, at 1280, 1440 and 390 px', async ({ portal, context, page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('billing-screens');
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  await signInInBrowser(page, portal.platformUrl, email);
  // A paid order, then a failed one: a card whose charges are declined, made the default.
  await saveCard(page, '4242424242424242', true);
  const paid = await fromPage(page, '/sso/me/subscriptions', { plan: 'secret.pro', months: 1, currency: 'USD', idempotency_key: crypto.randomUUID() });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  await saveCard(page, '4000000000000341', true);
  const failed = await fromPage(page, '/sso/me/subscriptions', { plan: 'vulnscan.standard', months: 1, currency: 'USD', idempotency_key: crypto.randomUUID() });
  expect(failed.status).toBe(402);

  for (const brand of ['platform', 'locker'] as const) {
    const origin = brand === 'locker' ? portal.lockerUrl : portal.platformUrl;
    for (const language of ['en', 'vi'] as const) {
      await context.addCookies([{ name: 'lang', value: language, url: origin }]);
      if (brand === 'locker') await signInInBrowser(page, origin, email);
      // Loaded once per brand and language, then seen at each width as a window is resized.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${origin}/billing`);
      await expect(page.getByTestId('order-row')).toHaveCount(2);
      await expect(page.getByTestId('orders-table')).toContainText(language === 'vi' ? 'Thất bại' : 'Failed');
      for (const width of [1280, 1440, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await expect.poll(() => cutBadges(page), `no badge cut at ${width} px`).toEqual([]);
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
        await snap(page, `billing-orders-${brand}-${language}-${width}`);
      }
    }
  }
});

test('the notification list wears the brand colour on Locker', async ({ portal, context, page }) => {
  const email = uniqueEmail('notifications-locker');
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  // A sign-in from another device is news for the person's list (a security notification).
  for (const device of ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)']) {
    const other = await context.request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email, password: PASSWORD }, headers: { 'user-agent': device, 'x-forwarded-for': '203.0.113.7' } });
    expect(other.status()).toBe(200);
  }
  await context.clearCookies();
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.lockerUrl }]);
  await signInInBrowser(page, portal.lockerUrl, email);
  await page.goto(`${portal.lockerUrl}/`);
  const bell = page.getByTestId('notifications-bell');
  await expect(bell).toHaveAccessibleName(/unread/, { timeout: 30_000 });
  await bell.click();
  const menu = page.getByTestId('notifications-menu');
  await expect(menu.getByTestId('notification-item').first()).toBeVisible();
  // The unread dot and 'Mark all as read' are Locker's green, not the platform's blue.
  await expect(menu.getByRole('menuitem', { name: 'Mark all as read' })).toHaveCSS('color', LOCKER_GREEN);
  await expect(menu.getByTestId('notification-item').first().getByLabel('Unread')).toHaveCSS('background-color', LOCKER_GREEN);
  await snap(page, 'notifications-locker-en');
  expect(await seriousViolations(page)).toEqual([]);
  // All read: the menu stays open, without the dots or the 'mark all' item, and is still a well-formed menu.
  await menu.getByRole('menuitem', { name: 'Mark all as read' }).click();
  await expect(menu.getByRole('menuitem', { name: 'Mark all as read' })).toHaveCount(0);
  await expect(menu.getByLabel('Unread')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'notifications-locker-en-390');
});

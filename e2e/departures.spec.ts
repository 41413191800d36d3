import { VISITED_COOKIE, VISITED_COOKIE_MAX_AGE } from '../packages/contracts/src/constants';
import { e2eEnv } from './support/env';
import { cookieMap, secondsLeft } from './support/helpers';
import { expect, test } from './support/mail';

/** Places where the portal departed from the spec, checked in a real browser. */

test('the brand panel runs the full length of a page taller than the window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 420 });
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(pageHeight).toBeGreaterThan(420);
  const panel = await page.getByTestId('brand-panel').boundingBox();
  expect(panel?.height).toBeGreaterThanOrEqual(pageHeight - 1);
  // Scrolled to the bottom, the panel's colour is still beside the form.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const colourAtBottom = await page.evaluate(() => {
    const element = document.elementFromPoint(20, window.innerHeight - 5);
    return element?.closest('[data-testid="brand-panel"]') !== null;
  });
  expect(colourAtBottom).toBe(true);
});

test('the password-manager logo leads somewhere that exists by default (VAULT_URL)', async ({ page }) => {
  const { lockerUrl, vaultUrl } = e2eEnv();
  await page.goto(`${lockerUrl}/login`);
  const href = await page.getByTestId('logo-link').first().getAttribute('href');
  expect(href).toBe(vaultUrl);
  const response = await page.goto(href!);
  expect(response?.status()).toBe(200);
  await expect(page.getByText('This page could not be found')).toHaveCount(0);
});

test('the visited cookie lives 604800 s', async ({ page, context }) => {
  await page.goto('/login');
  // The heading is the server-rendered first screen's at once; the app writes the cookie when it starts.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect.poll(async () => (await cookieMap(context, page.url())).get(VISITED_COOKIE)).toBeDefined();
  const visited = (await cookieMap(context, page.url())).get(VISITED_COOKIE);
  expect(Math.abs(secondsLeft(visited!) - VISITED_COOKIE_MAX_AGE)).toBeLessThan(60);
});

import type { Route } from '@playwright/test';
import { expect, test } from './support/mail';

/**
 * A navigation on its way: the address changes as a link is followed, and the page being left
 * stays on screen until the next page's code has loaded. Meanwhile it is inert: nothing is typed
 * into it or sent from it under the new address (/login and /login/quick both have an "Email"
 * field, and a test once filled the old one).
 */
test('the page being left is inert until the next page has loaded', async ({ page }) => {
  // The quick sign-in page's code is held (link prefetch asks for it too, before the click).
  const held: Route[] = [];
  const chunk = /\/assets\/LoginQuickPage-[\w-]+\.js$/;
  await page.route(chunk, (route) => void held.push(route));
  await page.goto('/login');
  const oldField = page.getByLabel('Email');
  await expect(oldField).toBeVisible();

  await page.getByRole('link', { name: 'Sign in with an email code' }).click();
  await page.waitForURL(/\/login\/quick$/);
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await expect(page.locator('[inert][aria-busy="true"]')).toHaveCount(1);
  // The old field takes neither a click, focus nor keys, and Enter sends nothing.
  await expect(oldField.click({ timeout: 1_000 })).rejects.toThrow();
  await oldField.focus();
  await page.keyboard.type('old@example.com');
  await page.keyboard.press('Enter');
  await expect(oldField).toHaveValue('');
  await expect(page).toHaveURL(/\/login\/quick$/);

  await Promise.all(held.map((route) => route.continue()));
  await page.unroute(chunk);
  await expect(page.getByRole('heading', { name: 'Sign in with an email code' })).toBeVisible();
  await expect(page.locator('[inert]')).toHaveCount(0);
  await page.getByLabel('Email').fill('new@example.com');
  await expect(page.getByLabel('Email')).toHaveValue('new@example.com');
});

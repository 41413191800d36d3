import { sharedAccount, signInInBrowser } from './support/accounts';
import { pageErrors, SCREENSHOTS_ONLY, screenshotsOn, snap } from './support/helpers';
import { expect, test } from './support/mail';

/**
 * Screenshots of every account page in both brands and languages (e2e/screenshots/account-*.png),
 * one account for all of them.
 */

test.describe('screenshots', () => {
  test.skip(!screenshotsOn, SCREENSHOTS_ONLY);
  test.describe.configure({ mode: 'default' });
  const shared = sharedAccount('shots');
  const pagesToShoot = ['/', '/account', '/email', '/privacy', '/api-keys'] as const;
  for (const brand of ['platform', 'locker'] as const) {
    for (const language of ['en', 'vi'] as const) {
      test(`${brand} ${language}: every account page`, async ({ browser, portal }) => {
        test.setTimeout(90_000);
        const origin = brand === 'platform' ? portal.platformUrl : portal.lockerUrl;
        // One database behind both brands: the account is made through the platform host.
        const account = shared();
        const context = await browser.newContext({ baseURL: origin });
        await context.addCookies([{ name: 'lang', value: language, url: origin }]);
        const page = await context.newPage();
        await signInInBrowser(page, origin, account);
        const errors = pageErrors(page);
        for (const path of pagesToShoot) {
          await page.goto(path);
          await expect(page.locator('main h1').first()).toBeVisible();
          await page.waitForLoadState('networkidle');
          await snap(page, `account-${brand}-${language}-${path === '/' ? 'home' : path.slice(1)}`);
        }
        await page.goto('/');
        await page.getByTestId('notifications-bell').click();
        await snap(page, `account-${brand}-${language}-notifications`);
        await page.keyboard.press('Escape');
        await page.goto('/api-keys');
        await page.getByTestId('create-api-key').click();
        await snap(page, `account-${brand}-${language}-create-key`);
        await page.goto('/account');
        await page.getByTestId('delete-account').click();
        await snap(page, `account-${brand}-${language}-delete`);
        await page.goto('/email');
        await page.getByTestId('change-email').click();
        await snap(page, `account-${brand}-${language}-change-email`);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/account');
        await expect(page.locator('main h1').first()).toBeVisible();
        await snap(page, `account-${brand}-${language}-account-mobile`);
        await context.clearCookies();
        await context.addCookies([{ name: 'lang', value: language, url: origin }]);
        await page.goto('/login/explore');
        await expect(page.locator('h1').first()).toBeVisible();
        await page.setViewportSize({ width: 1280, height: 800 });
        await snap(page, `account-${brand}-${language}-explore`);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});

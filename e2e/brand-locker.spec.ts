import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { chooseLanguageSaved, SCREENSHOTS_ONLY, screenshotsOn, snap } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';

/**
 * The brand goes past the sign-in page: on the password manager's host (locker.localhost) a
 * signed-in page has Locker's green, its name and logo (drawn as outlines, so it never clips),
 * and on both hosts Terms, Privacy and each product card lead somewhere real. Screenshots of
 * the shell, Home and Explore at desktop and phone widths in both brands and languages.
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';
/** Locker's primary shade (app/theme.ts): the filled buttons' background. */
const LOCKER_GREEN = 'rgb(33, 119, 47)';
/** The platform's primary blue, Mantine's blue.8. */
const PLATFORM_BLUE = 'rgb(25, 113, 194)';

/** Signs the page in from inside the browser: Node cannot resolve locker.localhost, Chromium can. */
async function signInInBrowser(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/login/explore`);
  const status = await page.evaluate(
    async (body) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { email, password: PASSWORD },
  );
  expect(status).toBe(200);
}

async function primaryColour(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim());
}

test('the Locker brand reaches the signed-in pages: colour, name, logo, real Terms and Privacy', async ({ context, page, portal }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('brand-locker');
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.lockerUrl }]);
  await signInInBrowser(page, portal.lockerUrl, email);

  await page.goto(`${portal.lockerUrl}/`);
  await expect(page.getByRole('heading', { name: 'Welcome, Ada Lovelace', level: 1 })).toBeVisible();
  expect(await page.locator('html').getAttribute('data-brand')).toBe('locker');
  // The theme's primary colour is Locker's green, and a filled button wears it.
  expect((await primaryColour(page)).toLowerCase()).toBe('#21772f');

  // The footer names Locker's site and links the brand's Terms and Privacy, each in a new tab.
  const footer = page.locator('footer');
  await expect(footer.getByRole('link', { name: 'Locker website' })).toHaveAttribute('href', /^https:\/\/locker\.io\/?$/);
  for (const [name, href] of [
    ['Terms of Service', 'https://locker.io/terms'],
    ['Privacy Policy', 'https://locker.io/privacy'],
  ]) {
    const link = footer.getByRole('link', { name });
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }

  // The wordmark is outlines in the SVG: no <text> whose width depends on the device's fonts.
  const logo = await page.evaluate(async () => (await fetch('/brand/locker/logo.svg')).text());
  expect(logo).not.toContain('<text');
  const box = await page.getByTestId('logo-link').locator('img:visible').boundingBox();
  expect(box?.height).toBe(32);

  // Every product card opens a page; the ones on other sites in a new tab.
  const grid = page.getByTestId('product-grid');
  const cards = grid.locator('article');
  const count = await cards.count();
  expect(count).toBeGreaterThan(5);
  for (let index = 0; index < count; index++) {
    const open = cards.nth(index).getByRole('link');
    await expect(open).toHaveAttribute('href', /^https?:\/\//);
  }
  await expect(grid.getByTestId('product-safechain-open')).toHaveAttribute('target', '_blank');
  await expectNoSeriousViolations(page);

  // Explore, signed in: the account, not a sign-in.
  await page.goto(`${portal.lockerUrl}/login/explore`);
  await expect(page.getByRole('heading', { name: 'Explore Locker products', level: 1 })).toBeVisible();
  // A filled button wears the green.
  await expect(page.getByTestId('explore-account')).toHaveCSS('background-color', LOCKER_GREEN);
  await expect(page.getByTestId('explore-sign-in')).toHaveCount(0);
  await expectNoSeriousViolations(page);
});

test("the Terms and Privacy links of the sign-up form are the brand's public pages, not our 404", async ({ page, portal }) => {
  await page.goto(`${portal.platformUrl}/register`);
  const terms = page.getByRole('link', { name: 'Terms of Service' }).first();
  const privacy = page.getByRole('link', { name: 'Privacy Policy' }).first();
  await expect(terms).toHaveAttribute('href', 'https://cystack.net/terms-of-service');
  await expect(privacy).toHaveAttribute('href', 'https://cystack.net/privacy');
  // None of the legal links points into the portal, where no such page exists.
  const hrefs = await page.locator('a').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  expect(hrefs.filter((href) => /terms|privacy-policy/.test(href) && href.startsWith(portal.platformUrl))).toEqual([]);
  expect(await primaryColour(page)).toBe('#1971c2');
  await expect(page.getByRole('button', { name: 'Create account' }).first()).toHaveCSS('background-color', PLATFORM_BLUE);
});

test.describe('screenshots: shell, home and explore in both brands, languages and widths', () => {
  for (const brand of ['platform', 'locker'] as const) {
    test(`${brand}`, async ({ context, page, portal }) => {
      test.skip(!screenshotsOn, SCREENSHOTS_ONLY);
      test.setTimeout(180_000);
      const origin = brand === 'locker' ? portal.lockerUrl : portal.platformUrl;
      const email = uniqueEmail(`brand-shots-${brand}`);
      await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
      await context.addCookies([{ name: 'lang', value: 'en', url: origin }]);
      await signInInBrowser(page, origin, email);
      for (const language of ['en', 'vi'] as const) {
        for (const [width, height] of [
          [1440, 900],
          [390, 844],
        ]) {
          await page.setViewportSize({ width, height });
          await page.goto(`${origin}/`);
          await expect(page.getByTestId('product-grid')).toBeVisible();
          if (language === 'vi' && width === 1440) await chooseLanguageSaved(page, 'vi');
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          // Nothing wider than the window: no sideways scroll.
          expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
          await snap(page, `brand-${brand}-home-${language}-${width}`);
          await page.goto(`${origin}/login/explore`);
          await expect(page.getByTestId('explore-account')).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
          await snap(page, `brand-${brand}-explore-${language}-${width}`);
          await page.goto(`${origin}/account`);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await snap(page, `brand-${brand}-account-${language}-${width}`);
        }
      }
      await expectNoSeriousViolations(page);
    });
  }
});

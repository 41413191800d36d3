import { expect, test, type Page } from '@playwright/test';
import { demoAccount, signIn } from './support/auth';
import { e2eEnv } from './support/env';
import { chooseLanguage, cookieMap, pageErrors, rawGet, secondsLeft, snap } from './support/helpers';

/**
 * The foundation issue in a real browser: the brand chosen by the Host header before the
 * first paint, service scopes kept across navigation, the 404 page, the language picker
 * and the route guards.
 */

// Test files are also loaded to list the tests, before the global setup has started the
// server; the addresses are read when a test runs.
const env = () => e2eEnv();

const brandCases = [
  { brand: 'platform', origin: () => env().platformUrl, title: 'CyStack ID', themeColor: '#1D4ED8', logoHref: () => `${env().platformUrl}/` },
  { brand: 'locker', origin: () => env().lockerUrl, title: 'Locker ID', themeColor: '#268334', logoHref: () => env().vaultUrl },
] as const;

/** The element with `testId` that is visible (the header may render desktop and mobile variants). */
function visibleTestId(page: Page, testId: string) {
  return page.getByTestId(testId).filter({ visible: true }).first();
}

/** Resolves an href the way the browser follows it. */
async function resolvedHref(page: Page, testId: string): Promise<string> {
  const href = await visibleTestId(page, testId).getAttribute('href');
  expect(href, `${testId} has an href`).toBeTruthy();
  return new URL(href!, page.url()).toString();
}

test.describe('brand by host', () => {
  for (const c of brandCases) {
    test(`${c.brand}: /login carries the theme colour and title before any script, and the logo link`, async ({ page }) => {
      // The raw HTML, as the browser gets it before running anything.
      const raw = await rawGet(`${c.origin()}/login`);
      expect(raw.status).toBe(200);
      expect(String(raw.headers['content-type'])).toContain('text/html');
      const meta = new RegExp(`<meta name="theme-color" content="${c.themeColor}"`, 'i');
      const metaAt = raw.body.search(meta);
      expect(metaAt, `theme-color ${c.themeColor} in the HTML shell`).toBeGreaterThan(-1);
      const firstScript = raw.body.search(/<script\b/i);
      if (firstScript !== -1) expect(metaAt, 'theme-color comes before the first script').toBeLessThan(firstScript);
      expect(raw.body).toContain(`<title>${c.title}</title>`);

      const errors = pageErrors(page);
      await page.goto(`${c.origin()}/login`);
      await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', new RegExp(`^${c.themeColor}$`, 'i'));
      await expect(page).toHaveTitle(new RegExp(c.title));
      await expect(visibleTestId(page, 'logo-link')).toBeVisible();
      expect(await resolvedHref(page, 'logo-link')).toBe(c.logoHref());
      await snap(page, `foundation-${c.brand}-login`);
      expect(errors, 'no uncaught page errors').toEqual([]);
    });
  }
});

test.describe('service scope', () => {
  test('SERVICE_SCOPE names the service and survives navigation without the query (cookie, 300 s)', async ({ page, context }) => {
    await page.goto('/login?SERVICE_SCOPE=safechain');
    await expect(visibleTestId(page, 'service-name')).toContainText('SafeChain');
    await snap(page, 'foundation-scope-safechain-login');

    const cookie = (await cookieMap(context, env().platformUrl)).get('SERVICE_SCOPE');
    expect(cookie?.value, 'SERVICE_SCOPE cookie').toBe('safechain');
    const left = secondsLeft(cookie!);
    expect(left).toBeGreaterThan(240);
    expect(left).toBeLessThanOrEqual(301);

    await page.goto('/register');
    expect(new URL(page.url()).search).toBe('');
    await expect(visibleTestId(page, 'service-name')).toContainText('SafeChain');
    await snap(page, 'foundation-scope-safechain-register');
  });

  test('an unknown scope falls back silently to the brand default', async ({ page, browser }) => {
    // What the page shows with no scope at all, in a clean context.
    const clean = await browser.newContext();
    const plain = await clean.newPage();
    await plain.goto(`${env().platformUrl}/login`);
    const defaultName = (await visibleTestId(plain, 'service-name').textContent())?.trim();
    await clean.close();
    expect(defaultName, 'the default service name').toBeTruthy();

    const errors = pageErrors(page);
    await page.goto('/login?SERVICE_SCOPE=no-such-product');
    await expect(visibleTestId(page, 'service-name')).toHaveText(defaultName!);
    await expect(page.getByTestId('error-status')).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(errors).toEqual([]);
    await snap(page, 'foundation-scope-unknown-login');
  });
});

test.describe('error pages', () => {
  test('an unknown path shows the 404 page with a way home', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status(), 'the HTTP status of an unknown page').toBe(404);
    await expect(page.getByTestId('error-status')).toContainText('404');
    await expect(page.getByText('This page could not be found')).toBeVisible();
    const home = page.getByRole('link', { name: 'Back to the home page' });
    await expect(home).toBeVisible();
    await snap(page, 'foundation-404');

    await home.click();
    // Home is signed-in only: a visitor ends up on sign-in.
    await expect(page).toHaveURL((url) => url.pathname === '/login');
  });
});

test.describe('language', () => {
  test('Vietnamese chosen with the language picker persists across a reload (lang cookie)', async ({ page, context }) => {
    await page.goto('/login');
    await expect(visibleTestId(page, 'language-picker')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await snap(page, 'foundation-language-en');

    await chooseLanguage(page, 'vi');
    await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
    await expect.poll(async () => (await cookieMap(context, env().platformUrl)).get('lang')?.value).toBe('vi');
    await snap(page, 'foundation-language-vi');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
    const picker = visibleTestId(page, 'language-picker');
    await expect(picker).toBeVisible();
    if ((await picker.evaluate((element) => element.tagName)) === 'SELECT') await expect(picker).toHaveValue('vi');
    else await expect(picker).toContainText(/Tiếng Việt|VI/i);
    expect((await cookieMap(context, env().platformUrl)).get('lang')?.value).toBe('vi');
    await snap(page, 'foundation-language-vi-reloaded');
  });
});

test.describe('guards', () => {
  test('a signed-out visitor opening a signed-in page goes to /login, keeping the return path', async ({ page }) => {
    await page.goto('/security');
    await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/security');
    await snap(page, 'foundation-guard-security-to-login');

    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname === '/login');
  });

  test('/maintenance goes home (and on to /login when signed out)', async ({ page }) => {
    await page.goto('/maintenance');
    await expect(page).toHaveURL((url) => url.pathname === '/login');
  });

  test.describe('signed in', () => {
    test.beforeEach(async ({ context }) => {
      const account = demoAccount();
      test.skip(!account, 'needs the seeded demo account (its password is read from the server log)');
      await signIn(context, env().platformUrl, account!);
    });

    test('a signed-in user opening /login goes to / with the query kept', async ({ page }) => {
      await page.goto('/login?SERVICE_SCOPE=safechain&foo=bar');
      await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '?SERVICE_SCOPE=safechain&foo=bar');
      await expect(visibleTestId(page, 'sidebar-toggle')).toBeVisible();
      await snap(page, 'foundation-guard-signed-in-home');
    });

    test('a signed-in user may open /login/explore', async ({ page }) => {
      await page.goto('/login/explore');
      await expect(page).toHaveURL((url) => url.pathname === '/login/explore');
      await snap(page, 'foundation-guard-signed-in-explore');
    });

    test('/maintenance takes a signed-in user home', async ({ page }) => {
      await page.goto('/maintenance');
      await expect(page).toHaveURL((url) => url.pathname === '/');
    });
  });
});

import type { Page } from '@playwright/test';
import { axeViolations, isSerious } from './support/axe';
import { cspViolations, pageErrors } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail, type Portal } from './support/mail';

/**
 * axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on every screen, in both brands and both
 * languages, in Chromium: no serious or critical violation, and no script error or CSP
 * violation on the way. Public screens signed out, the account screens signed in. One test per brand and language walks every screen in one
 * page, so the whole sweep stays within a minute.
 */

const PUBLIC_SCREENS = [
  '/login',
  '/login/password',
  '/login/quick',
  '/login/sso',
  '/login/explore',
  '/register',
  '/register/premium',
  '/register?SERVICE_SCOPE=secret',
  '/register/verifying-email',
  '/o/authorize?client_id=unknown',
  '/create-user',
  '/callback?error=access_denied',
  '/forgot',
  '/reset-pwd/not-a-real-token',
  '/confirmation/not-a-real-token',
  '/captcha',
  '/server-error',
  '/no-such-page',
];

const ACCOUNT_SCREENS = [
  '/',
  '/account',
  '/api-keys',
  '/billing',
  '/email',
  '/login/quick-app',
  // The business trial's form is for the signed-in person.
  '/register/locker-enterprise-trial',
  '/privacy',
  '/wallet',
  '/wallet/vnd',
  '/wallet/whc',
  '/security',
  '/security/device-activity',
  '/security/password',
  '/security/two-step-verification',
  '/security/webauthn',
];

const PASSWORD = 'Orchid-Lantern-Harbor-58';

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  nodes: string[];
}

/** Serious and critical violations on the page as it stands. */
async function audit(page: Page, screen: string): Promise<Finding[]> {
  return (await axeViolations(page))
    .filter(isSerious)
    .map((violation) => ({
      screen,
      rule: violation.id,
      impact: violation.impact ?? '',
      nodes: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    }));
}

/** How long a screen must stay still (no request in flight, no DOM change) before it is audited. */
const STILL_MS = 150;

/**
 * Watches the page for what makes a screen unfinished: requests in flight (lazy chunks, data)
 * and changes to the DOM (a response rendering, a route swapping in). The DOM is watched from
 * before the app's first script, on every document the page loads.
 */
async function watchActivity(page: Page): Promise<() => Promise<number>> {
  let inFlight = 0;
  let lastRequest = Date.now();
  const started = () => {
    inFlight += 1;
    lastRequest = Date.now();
  };
  const ended = () => {
    inFlight -= 1;
    lastRequest = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  await page.addInitScript(() => {
    const state = window as unknown as { e2eLastDomChange: number };
    state.e2eLastDomChange = performance.now();
    new MutationObserver(() => (state.e2eLastDomChange = performance.now())).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  // Milliseconds the page has been still, 0 while a request is in flight.
  return async () => {
    if (inFlight > 0) return 0;
    const domStill = await page.evaluate(() => performance.now() - (window as unknown as { e2eLastDomChange: number }).e2eLastDomChange);
    return Math.min(domStill, Date.now() - lastRequest);
  };
}

/**
 * Opens a screen and waits until it is finished: its code and data loaded and rendered, then
 * still for STILL_MS, with no busy region. (`networkidle` fires once per document: after a
 * history navigation it waited for nothing, and a fixed 250 ms pause stood in for the data.)
 * Motion is reduced (test.use below, and the theme's respectReducedMotion), so nothing is
 * mid-fade when axe reads colours. After the first, screens open the way a link does
 * (history + popstate, which the router follows): no reload of the app for each.
 */
async function open(page: Page, url: string, stillFor: () => Promise<number>): Promise<void> {
  const target = new URL(url);
  const current = page.url() ? new URL(page.url()) : null;
  if (current?.origin === target.origin) {
    await page.evaluate((path) => {
      history.pushState(null, '', path);
      dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, `${target.pathname}${target.search}`);
  } else {
    await page.goto(url);
  }
  await expect.poll(stillFor, { message: `${url} settles`, intervals: [50] }).toBeGreaterThanOrEqual(STILL_MS);
  await expect(page.locator('#root')).not.toBeEmpty();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

async function sweep(page: Page, origin: string, screens: string[], stillFor: () => Promise<number>, options: { signedIn?: boolean } = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const screen of screens) {
    await open(page, `${origin}${screen}`, stillFor);
    // A signed-in screen is audited as itself, not as the sign-in page a lost session sends it to.
    if (options.signedIn) expect(new URL(page.url()).pathname, `${screen} stays signed in`).toBe(new URL(screen, origin).pathname);
    findings.push(...(await audit(page, screen)));
  }
  return findings;
}

const brands = [
  { brand: 'platform', origin: (portal: Portal) => portal.platformUrl },
  { brand: 'locker', origin: (portal: Portal) => portal.lockerUrl },
] as const;

test.describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  test.describe.configure({ timeout: 180_000 });
  // No slide advancing and no transition mid-audit (axe reads the colours on screen at that instant).
  test.use({ reducedMotion: 'reduce' });

  for (const { brand, origin } of brands) {
    for (const language of ['en', 'vi'] as const) {
      test(`${brand}, ${language}: every public and signed-in screen has no serious or critical violation`, async ({ page, portal, playwright }) => {
        const base = origin(portal);
        const errors = pageErrors(page);
        const csp = cspViolations(page);
        const stillFor = await watchActivity(page);
        await page.context().addCookies([{ name: 'lang', value: language, url: base }]);
        const findings = await sweep(page, base, PUBLIC_SCREENS, stillFor);

        // An account of this brand, signed in from the page (Node cannot resolve locker.localhost; Chromium can).
        const request = await playwright.request.newContext();
        const account = { email: uniqueEmail(`a11y-${brand}-${language}`), password: PASSWORD, fullName: 'Ada Lovelace' };
        await createActivatedAccount(request, portal, account);
        await request.dispose();
        await open(page, `${base}/login/explore`, stillFor);
        const status = await page.evaluate(
          async ({ email, password }) =>
            (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
          account,
        );
        expect(status).toBe(200);
        // The app learns of the new session when it loads: the first account screen is a page load.
        await page.goto('about:blank');
        findings.push(...(await sweep(page, base, ACCOUNT_SCREENS, stillFor, { signedIn: true })));

        expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
        expect(errors.map(String)).toEqual([]);
        expect(csp).toEqual([]);
      });
    }
  }
});

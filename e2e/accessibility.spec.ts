import type { Page, PlaywrightWorkerArgs, Route } from '@playwright/test';
import { axeViolations, isSerious } from './support/axe';
import { cspViolations, pageErrors } from './support/helpers';
import { open, UNFINISHED, watchActivity, type Activity } from './support/screens';
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

/** Screens whose data arrives after the page (each shows a LoadingIndicator meanwhile), with the API call each waits for. */
const LOADING_SCREENS = [
  { screen: '/wallet', api: '/v3/sso/me/wallet' },
  { screen: '/security/webauthn', api: '/v3/sso/users/me/webauthn' },
  { screen: '/security/two-step-verification', api: '/v3/sso/me/2fa' },
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

async function sweep(page: Page, origin: string, screens: string[], activity: Activity, options: { signedIn?: boolean } = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const screen of screens) {
    await open(page, `${origin}${screen}`, activity);
    // A signed-in screen is audited as itself, not as the sign-in page a lost session sends it to.
    if (options.signedIn) expect(new URL(page.url()).pathname, `${screen} stays signed in`).toBe(new URL(screen, origin).pathname);
    findings.push(...(await audit(page, screen)));
  }
  return findings;
}

/**
 * A new activated account of `base`'s brand, signed in from the page (Node cannot resolve
 * locker.localhost; Chromium can). The app learns of the session at its next page load.
 */
async function signIn(page: Page, playwright: PlaywrightWorkerArgs['playwright'], portal: Portal, base: string, name: string, activity: Activity): Promise<void> {
  const request = await playwright.request.newContext();
  const account = { email: uniqueEmail(name), password: PASSWORD, fullName: 'Ada Lovelace' };
  await createActivatedAccount(request, portal, account);
  await request.dispose();
  await open(page, `${base}/login/explore`, activity);
  const status = await page.evaluate(
    async ({ email, password }) =>
      (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
    account,
  );
  expect(status).toBe(200);
  await page.goto('about:blank');
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
        const activity = await watchActivity(page);
        await page.context().addCookies([{ name: 'lang', value: language, url: base }]);
        const findings = await sweep(page, base, PUBLIC_SCREENS, activity);

        await signIn(page, playwright, portal, base, `a11y-${brand}-${language}`, activity);
        // The app learns of the new session when it loads: the first account screen is a page load.
        findings.push(...(await sweep(page, base, ACCOUNT_SCREENS, activity, { signedIn: true })));

        expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
        expect(errors.map(String)).toEqual([]);
        expect(csp).toEqual([]);
      });
    }
  }

  // The sweep audits finished screens; what shows before, while a screen's data is on its way, is audited here.
  test('a screen while its data loads has no serious or critical violation', async ({ page, portal, playwright }) => {
    const base = portal.platformUrl;
    const errors = pageErrors(page);
    const activity = await watchActivity(page);
    await signIn(page, playwright, portal, base, 'a11y-loading', activity);
    const findings: Finding[] = [];
    for (const { screen, api } of LOADING_SCREENS) {
      // The screen's data is held until it has been audited.
      const held: Route[] = [];
      const hold = (url: URL) => url.pathname === api;
      await page.route(hold, (route) => void held.push(route));
      await page.goto(`${base}${screen}`);
      await expect(page.getByTestId('loading').first()).toBeVisible();
      await expect.poll(() => held.length, { message: `${screen} asks for its data` }).toBeGreaterThan(0);
      findings.push(...(await audit(page, `${screen} (loading)`)));
      await Promise.all(held.map((route) => route.continue()));
      await page.unroute(hold);
      await expect(page.locator(UNFINISHED)).toHaveCount(0);
    }
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
    expect(errors.map(String)).toEqual([]);
  });
});

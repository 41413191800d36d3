import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
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
  '/register/locker-enterprise-trial',
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
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    // Only the violations' details: a third of the time of a full report.
    .options({ resultTypes: ['violations'] })
    // One run in the page (no iframes to cross), instead of a blank page opened per audit to merge frame results.
    .setLegacyMode(true)
    .analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      screen,
      rule: violation.id,
      impact: violation.impact ?? '',
      nodes: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    }));
}

/**
 * Opens a screen and waits until its page has painted (lazy chunks and text loaded, no
 * spinner). After the first, screens open the way a link does (history + popstate, which
 * the router follows): no reload of the app for each.
 */
async function open(page: Page, url: string): Promise<void> {
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
  await page.waitForLoadState('networkidle');
  await expect(page.locator('#root')).not.toBeEmpty();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // Entrance transitions (Mantine's, 150-200 ms) must end: axe reads the colours on screen.
  await page.waitForTimeout(250);
}

async function sweep(page: Page, origin: string, screens: string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const screen of screens) {
    await open(page, `${origin}${screen}`);
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

  for (const { brand, origin } of brands) {
    for (const language of ['en', 'vi'] as const) {
      test(`${brand}, ${language}: every public and signed-in screen has no serious or critical violation`, async ({ page, portal, playwright }) => {
        const base = origin(portal);
        const errors = pageErrors(page);
        const csp = cspViolations(page);
        // No slide advancing or fading in mid-audit (axe reads the colours on screen at that instant).
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.context().addCookies([{ name: 'lang', value: language, url: base }]);
        const findings = await sweep(page, base, PUBLIC_SCREENS);

        // An account of this brand, signed in from the page (Node cannot resolve locker.localhost; Chromium can).
        const request = await playwright.request.newContext();
        const account = { email: uniqueEmail(`a11y-${brand}-${language}`), password: PASSWORD, fullName: 'Ada Lovelace' };
        await createActivatedAccount(request, portal, account);
        await request.dispose();
        await open(page, `${base}/login/explore`);
        const status = await page.evaluate(
          async ({ email, password }) =>
            (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
          account,
        );
        expect(status).toBe(200);
        findings.push(...(await sweep(page, base, ACCOUNT_SCREENS)));

        expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
        expect(errors.map(String)).toEqual([]);
        expect(csp).toEqual([]);
      });
    }
  }
});

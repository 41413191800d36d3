import type { Page } from '@playwright/test';
import { axeViolations, isSerious } from './support/axe';
import { cspViolations, pageErrors } from './support/helpers';
import { open, watchActivity } from './support/screens';
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

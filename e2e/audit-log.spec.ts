import { readFile } from 'node:fs/promises';
import { expect, test, type BrowserContext } from '@playwright/test';
import { settledViolations as seriousViolations } from './support/axe';
import { signIn } from './support/auth';
import { snap } from './support/helpers';
import { createActivatedAccount, type Portal } from './support/mail';
import { startOrganizationPortal, type OrganizationPortal } from './support/organizations';
import type { PortalServer } from './support/server';

/**
 * The organization audit log in Chromium: an organization is made with `npm run
 * organizations` before this spec's own server starts (PGlite is opened by one process), its
 * people sign up through the API; a member signs in through the pages (a wrong password
 * first), the admin reads, filters and exports the log, and a plain member is refused.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'plum-orbit-cactus-917';
const stamp = Date.now().toString(36);
const admin = { email: `admin-${stamp}@acme.example`, password: PASSWORD, fullName: 'Ada Admin' };
const member = { email: `member-${stamp}@acme.example`, password: PASSWORD, fullName: 'Max Member' };
const plain = { email: `plain-${stamp}@acme.example`, password: PASSWORD, fullName: 'Pat Plain' };

let server: PortalServer;
let portal: Portal;
let organization: OrganizationPortal;

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  organization = await startOrganizationPortal('audit', { name: 'Acme', owner: admin.email, members: [member.email, plain.email] });
  ({ server, portal } = organization);
  for (const account of [admin, member, plain]) await createActivatedAccount(request, portal, account);
});

test.afterAll(() => organization?.close());



async function setLanguage(context: BrowserContext, language: 'en' | 'vi'): Promise<void> {
  await context.addCookies([server.platformUrl, server.lockerUrl].map((url) => ({ name: 'lang', value: language, url })));
}

test('a member fails a sign-in, then signs in through the pages', async ({ page }) => {
  await page.goto(`${server.platformUrl}/login`);
  await page.getByLabel('Email or username').fill(member.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login\/password/);
  await page.getByLabel('Password', { exact: true }).fill('not-my-password-at-all');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Email or password not valid')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
});

test('the admin opens the audit log from the side bar, filters it and exports the CSV', async ({ page, context }) => {
  test.slow();
  await signIn(context, server.platformUrl, admin);
  await page.goto(`${server.platformUrl}/`);
  // Under the Organization entry of the side bar.
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/organization\/audit-log$/);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  await expect(rows.filter({ hasText: member.email }).filter({ hasText: 'Failed sign-in' })).toHaveCount(1);
  await expect(rows.filter({ hasText: member.email }).filter({ hasText: 'Signed in' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Failed sign-in' })).toContainText('Reason: wrong password');
  await expect(rows.filter({ hasText: 'Failed sign-in' })).toContainText('127.0.0.1');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'audit-log-platform-en');

  // Only failed sign-ins of the member.
  await page.getByTestId('audit-filter-actions').click();
  await page.getByRole('option', { name: 'Failed sign-in' }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('audit-filter-email').fill(member.email);
  await page.getByTestId('audit-apply').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-action', 'sign_in_failed');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('occurred_at,action,actor_email,actor_user_id,target_email,target_user_id,ip,user_agent,detail');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(`,sign_in_failed,${member.email},`);
  expect(lines[1]).toContain('"{""method"":""password"",""reason"":""auth.invalid_credentials""}"');

  // A range with nothing in it: the empty state.
  await page.getByTestId('audit-filter-from').fill('2001-01-01');
  await page.getByTestId('audit-filter-to').fill('2001-01-02');
  await page.getByTestId('audit-apply').click();
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  await snap(page, 'audit-log-empty-platform-en');
  // A reversed range: the server's refusal, under the field.
  await page.getByTestId('audit-filter-from').fill('2001-01-03');
  await page.getByTestId('audit-apply').click();
  await expect(page.getByTestId('audit-filter-error')).toContainText('Choose a start date before the end date');
  await snap(page, 'audit-log-bad-filter-platform-en');
});

test('a plain member sees no menu entry and is refused at the URL and by the API', async ({ page, context }) => {
  await signIn(context, server.platformUrl, plain);
  await page.goto(`${server.platformUrl}/`);
  await expect(page.getByRole('link', { name: 'Account', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await page.goto(`${server.platformUrl}/organization/audit-log`);
  await expect(page.getByTestId('audit-log-refused')).toContainText('Only an owner or admin of this organization can read its audit log');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'audit-log-refused-platform-en');
  const administered = await context.request.get(`${server.platformUrl}/v3/organizations/administered`);
  expect(await administered.json()).toEqual({ items: [] });
  const adminContext = await context.browser()!.newContext();
  await signIn(adminContext, server.platformUrl, admin);
  const { items } = await (await adminContext.request.get(`${server.platformUrl}/v3/organizations/administered`)).json();
  await adminContext.close();
  const refused = await context.request.get(`${server.platformUrl}/v3/organizations/${items[0].id}/audit-events`);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('audit.not_admin');
  const csv = await context.request.get(`${server.platformUrl}/v3/organizations/${items[0].id}/audit-events.csv`);
  expect(csv.status()).toBe(403);
});

test('the page in both brands and both languages', async ({ browser }) => {
  test.slow();
  for (const brand of ['platform', 'locker'] as const) {
    for (const language of ['en', 'vi'] as const) {
      const context = await browser.newContext();
      const origin = brand === 'platform' ? server.platformUrl : server.lockerUrl;
      await setLanguage(context, language);
      const page = await context.newPage();
      // Signed in from the page itself: Chromium resolves *.localhost, Node's resolver may not.
      await page.goto(`${origin}/login`);
      const status = await page.evaluate(async (account) => {
        const response = await fetch('/v3/sso/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account), credentials: 'include' });
        return response.status;
      }, { email: admin.email, password: admin.password });
      expect(status).toBe(200);
      await page.goto(`${origin}/organization/audit-log`);
      // The events may take a while on a loaded machine (two cores, several servers and browsers).
      await expect(page.getByTestId('audit-row').first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('link', { name: language === 'vi' ? 'Nhật ký kiểm tra' : 'Audit log' })).toBeVisible();
      if (language === 'vi') await expect(page.getByTestId('audit-row').filter({ hasText: 'Đăng nhập thất bại' }).first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, `audit-log-${brand}-${language}`);
      // A wide desktop, then a phone: there each event is a card and nothing scrolls sideways.
      await page.setViewportSize({ width: 1440, height: 900 });
      await snap(page, `audit-log-${brand}-${language}-1440`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.getByTestId('audit-table').locator('thead')).toHaveCSS('position', 'absolute');
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, `audit-log-${brand}-${language}-390`);
      await context.close();
    }
  }
});

import { test } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { chooseLanguage, pageErrors, snap } from './support/helpers';
import { expect, uniqueEmail } from './support/mail';
import { ConsolePortal, noSidewaysScroll } from './support/operators';

/**
 * The operators' console at /admin on a portal of its own: the people are made first, then the
 * server restarts with OPERATOR_EMAILS (how the first operator is made) naming an owner with
 * two-step verification and an owner without it. A person who is not an operator gets the
 * not-found page and a 403; the owner without two-step is sent to turn it on; the owner with
 * it sees the dashboard's charts and the operator audit log, at 1440 and 390 px, in both
 * languages, with no sideways scroll and no serious accessibility violation.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const owner = { email: uniqueEmail('admin-owner'), password: PASSWORD, fullName: 'Olivia Owner' };
const ownerWithoutTwoStep = { email: uniqueEmail('admin-no2fa'), password: PASSWORD, fullName: 'Nguyen No Two-Step' };
const person = { email: uniqueEmail('admin-person'), password: PASSWORD, fullName: 'Pat Person' };
const helper = { email: uniqueEmail('admin-support'), password: PASSWORD, fullName: 'Sam Support' };

const consolePortal = new ConsolePortal('admin');

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async ({ playwright }) => {
  // The first operators: named at start, as the README's quick start says.
  await consolePortal.setUp(playwright, { people: [owner, ownerWithoutTwoStep, person, helper], twoStep: [owner], owners: [owner, ownerWithoutTwoStep] });
});

test.afterAll(async () => {
  await consolePortal.close();
});

test('a person who is not an operator gets the not-found page at /admin and 403 from the admin API', async ({ browser }) => {
  const context = await browser.newContext();
  await consolePortal.signInAs(context, person);
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin`);
  await expect(page.getByTestId('error-status')).toHaveText('404');
  await page.goto(`${consolePortal.url}/admin/people`);
  await expect(page.getByTestId('error-status')).toHaveText('404');
  for (const url of ['/v3/admin/me', '/v3/admin/dashboard', '/v3/admin/audit']) {
    const response = await context.request.get(`${consolePortal.url}${url}`);
    expect([url, response.status(), ((await response.json()) as { code: string }).code]).toEqual([url, 403, 'admin.forbidden']);
  }
  await context.close();
});

test('an operator without two-step verification is sent to turn it on', async ({ browser }) => {
  const context = await browser.newContext();
  await consolePortal.signInAs(context, ownerWithoutTwoStep);
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin`);
  await expect(page.getByTestId('admin-two-factor-required')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'admin-two-factor-required');
  await page.getByRole('link', { name: 'Turn on two-step verification' }).click();
  await expect(page).toHaveURL(/\/security\/two-step-verification$/);
  await context.close();
});

test('an owner with two-step sees the dashboard charts and the operator audit, at 1440 and 390 px, in both languages', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, owner);
  const page = await context.newPage();
  const errors = pageErrors(page);

  // An owner's change is recorded with its reason: the audit page shows it.
  const granted = await context.request.post(`${consolePortal.url}/v3/admin/operators`, { data: { email: helper.email, role: 'support', reason: 'joins the support desk' } });
  expect(granted.status(), await granted.text()).toBe(201);

  await page.goto(`${consolePortal.url}/admin`);
  await expect(page.getByTestId('admin-dashboard')).toBeVisible();
  for (const metric of ['sign_ups', 'sign_ins', 'failed_sign_ins', 'lockouts', 'active_sessions', 'token_grants']) {
    await expect(page.getByTestId(`dashboard-${metric}`).locator('svg.recharts-surface')).toBeVisible();
  }
  // Four sign-ups and the sign-ins of this spec are on the charts' totals.
  expect(Number(await page.getByTestId('dashboard-sign_ups-total').innerText().then((text) => text.replace(/\D+/g, '')))).toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId('admin-nav-dashboard')).toBeVisible();
  await expect(page.getByTestId('admin-nav-audit')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await noSidewaysScroll(page, 'admin-dashboard-1440-en');
  await snap(page, 'admin-dashboard-1440-en');

  await page.getByTestId('dashboard-range').getByText('Last 30 days, per day').click();
  await expect(page.getByTestId('dashboard-sign_ups').locator('.recharts-bar-rectangle').first()).toBeAttached();

  await page.getByTestId('admin-nav-audit').click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  // Off the menu: axe judges the page at rest, not a link under the pointer.
  await page.mouse.move(700, 10);
  const row = page.getByTestId('audit-row').filter({ hasText: 'joins the support desk' });
  await expect(row).toBeVisible();
  await expect(row).toContainText(owner.email);
  await expect(row).toContainText('POST /admin/operators');
  expect(await seriousViolations(page)).toEqual([]);
  await noSidewaysScroll(page, 'admin-audit-1440-en');
  await snap(page, 'admin-audit-1440-en');

  // The CSV holds the same entry.
  const download = page.waitForEvent('download');
  await page.getByTestId('audit-download').click();
  const file = await (await download).path();
  const { readFile } = await import('node:fs/promises');
  expect(await readFile(file, 'utf8')).toContain('joins the support desk');

  // A filter that matches nothing says so.
  await page.getByTestId('audit-filter-actor').fill('nobody-matches-this');
  await page.getByTestId('audit-apply').click();
  await expect(page.getByTestId('audit-empty')).toBeVisible();

  // Vietnamese, then a phone: the menu folds into a button, nothing scrolls sideways.
  await chooseLanguage(page, 'vi');
  await page.getByTestId('admin-nav-dashboard').click();
  await page.mouse.move(700, 10);
  await expect(page.getByRole('heading', { level: 1, name: 'Tổng quan' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'admin-dashboard-1440-vi');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('admin-nav-audit')).not.toBeInViewport();
  await noSidewaysScroll(page, 'admin-dashboard-390-vi');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'admin-dashboard-390-vi');
  await page.getByTestId('admin-menu-toggle').click();
  await page.getByTestId('admin-nav-audit').click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await page.mouse.move(200, 10);
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await noSidewaysScroll(page, 'admin-audit-390-vi');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'admin-audit-390-vi');

  await chooseLanguage(page, 'en');
  await page.getByTestId('admin-menu-toggle').click();
  await page.getByTestId('admin-nav-dashboard').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await noSidewaysScroll(page, 'admin-dashboard-390-en');
  await snap(page, 'admin-dashboard-390-en');
  expect(errors).toEqual([]);
  await context.close();
});

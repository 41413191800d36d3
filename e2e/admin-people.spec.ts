import { test } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { chooseLanguage, chooseLanguageSaved, pageErrors, snap } from './support/helpers';
import { expect, uniqueEmail } from './support/mail';
import { ConsolePortal, looksRight } from './support/operators';

/**
 * People in the operators' console, on a portal of its own: the owner (CONSOLE_OWNER, made
 * by the operator command line) makes a support and a finance operator. Support searches a
 * person by the start of their email, opens their page and locks the account with a reason: the person's
 * browser is signed out at once and their password no longer signs them in. Finance reads
 * the same page without a single action, and the admin API refuses finance's lock. At 1440
 * and 390 px, in both languages, with no sideways scroll and no serious accessibility issue.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const support = { email: uniqueEmail('people-support'), password: PASSWORD, fullName: 'Sam Support' };
const finance = { email: uniqueEmail('people-finance'), password: PASSWORD, fullName: 'Fran Finance' };
const target = { email: uniqueEmail('people-target'), password: PASSWORD, fullName: 'Trần Thị Target' };

const consolePortal = new ConsolePortal('people');

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async ({ playwright }) => {
  // The owner makes the support and finance operators (each with a reason, in the operator audit log).
  await consolePortal.setUp(playwright, {
    people: [support, finance, target],
    twoStep: [support, finance],
    grants: [
      [support, 'support'],
      [finance, 'finance'],
    ],
  });
});

test.afterAll(async () => {
  await consolePortal.close();
});

test('support finds a person, opens their page and locks the account with a reason: the person is signed out at once', async ({ browser }) => {
  // The person, signed in in their own browser.
  const personContext = await browser.newContext();
  await consolePortal.signInAs(personContext, target);
  expect((await personContext.request.get(`${consolePortal.url}/v3/sso/me`)).status()).toBe(200);

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, support);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${consolePortal.url}/admin`);
  await page.getByTestId('admin-nav-people').click();
  await expect(page).toHaveURL(/\/admin\/people$/);
  await page.getByTestId('people-query').fill(target.email.slice(0, 14).toUpperCase());
  await page.getByTestId('people-search').click();
  const row = page.getByTestId('people-row').filter({ hasText: target.email });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('person-status')).toHaveAttribute('data-status', 'active');
  await looksRight(page, 'admin-people-search-1440-en');

  await row.getByTestId('people-open').click();
  await expect(page.getByTestId('admin-person')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: target.fullName })).toBeVisible();
  await expect(page.getByTestId('person-session').first()).toBeVisible();
  await looksRight(page, 'admin-person-1440-en');

  await page.getByTestId('person-lock').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  await dialog.getByTestId('action-reason').fill('Reported stolen by the owner on the phone');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'admin-person-lock-dialog-1440-en');
  await dialog.getByTestId('action-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('person-status')).toHaveAttribute('data-status', 'locked');
  await expect(page.getByTestId('person-locked-at')).toBeVisible();
  await expect(page.getByTestId('person-sessions-empty')).toBeVisible();
  await expect(page.getByTestId('person-unlock')).toBeVisible();

  // The person's browser is refused right after, and their password no longer signs them in.
  expect((await personContext.request.get(`${consolePortal.url}/v3/sso/me`)).status()).toBe(401);
  const again = await personContext.request.post(`${consolePortal.url}/v3/sso/auth`, { data: { email: target.email, password: target.password } });
  expect([again.status(), ((await again.json()) as { code: string }).code]).toEqual([403, 'auth.account_locked']);

  // Vietnamese on a phone: the same page, nothing sideways.
  await chooseLanguageSaved(page, 'vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('person-status')).toHaveText('Đã khóa');
  await looksRight(page, 'admin-person-390-vi');
  await page.goto(`${consolePortal.url}/admin/people`);
  await page.getByTestId('people-query').fill(target.email);
  await page.getByTestId('people-search').click();
  await expect(page.getByTestId('people-row').filter({ hasText: target.email })).toBeVisible();
  await looksRight(page, 'admin-people-search-390-vi');
  await chooseLanguage(page, 'en');
  expect(errors).toEqual([]);
  await context.close();
  await personContext.close();
});

test('finance reads a person without any action, and the admin API refuses its lock', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, finance);
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin/people`);
  await page.getByTestId('people-query').fill(target.email);
  await page.getByTestId('people-search').click();
  await page.getByTestId('people-row').filter({ hasText: target.email }).getByTestId('people-open').click();
  await expect(page.getByTestId('admin-person')).toBeVisible();
  await expect(page.getByTestId('person-actions')).toHaveCount(0);
  const userId = page.url().split('/').pop()!;
  const refused = await context.request.post(`${consolePortal.url}/v3/admin/people/${userId}/unlock`, { data: { reason: 'finance tries to unlock' } });
  expect([refused.status(), ((await refused.json()) as { code: string }).code]).toEqual([403, 'admin.forbidden']);
  await looksRight(page, 'admin-person-finance-1440-en');
  await context.close();
});

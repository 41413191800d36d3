import { test, type Page } from '@playwright/test';
import { chooseLanguage, chooseLanguageSaved, pageErrors } from './support/helpers';
import { expect, uniqueEmail } from './support/mail';
import { CONSOLE_OWNER, ConsolePortal, looksRight } from './support/operators';

/**
 * Apps and signing keys in the operators' console, on a portal of its own: the owner
 * (CONSOLE_OWNER, made by the operator command line) registers an outside app and sees its
 * secret once, rotates it (a new one, shown once, gone after), disables the app, and rotates
 * the signing keys. A support operator reads the apps without a single change and is refused
 * a secret rotation by the admin API.
 * At 1440 and 390 px, in both languages, with no sideways scroll and no serious accessibility issue.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const owner = CONSOLE_OWNER;
const support = { email: uniqueEmail('apps-support'), password: PASSWORD, fullName: 'Sam Support' };

let clientId = '';

const consolePortal = new ConsolePortal('apps');

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

/** Types the reason into the open dialog and confirms it. */
async function confirmWithReason(page: Page, reason: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  await dialog.getByTestId('action-reason').fill(reason);
  await dialog.getByTestId('action-confirm').click();
  await expect(dialog).toBeHidden();
}

test.beforeAll(async ({ playwright }) => {
  await consolePortal.setUp(playwright, { people: [support], twoStep: [support], grants: [[support, 'support']] });
});

test.afterAll(async () => {
  await consolePortal.close();
});

test('the owner registers an app (its secret shown once), rotates the secret and disables the app', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, owner);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${consolePortal.url}/admin`);
  await page.getByTestId('admin-nav-apps').click();
  await expect(page).toHaveURL(/\/admin\/apps$/);
  await expect(page.getByTestId('app-row').first()).toBeVisible();
  await looksRight(page, 'admin-apps-1440-en');

  await page.getByTestId('app-register').click();
  await page.getByTestId('app-new-name').fill('Partner Portal');
  await page.getByTestId('app-new-redirects').fill('https://partner.example/callback\nhttps://partner.example/other');
  await looksRight(page, 'admin-apps-register-1440-en');
  await page.getByTestId('app-new-submit').click();
  await confirmWithReason(page, 'Partner contract signed');

  const secret = page.getByTestId('app-secret-value');
  await expect(secret).toBeVisible();
  const first = (await secret.textContent())!.trim();
  expect(first).toMatch(/^[\w-]{40,}$/);
  const row = page.getByTestId('app-row').filter({ hasText: 'Partner Portal' });
  clientId = (await row.getAttribute('data-client-id'))!;
  expect(clientId).toMatch(/^app_/);
  await expect(page.getByTestId('app-details')).toBeVisible();
  await looksRight(page, 'admin-apps-registered-1440-en');

  // Shown once: gone after a reload, and in no answer the page reads.
  await page.reload();
  await expect(page.getByTestId('app-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(first);
  const read = await context.request.get(`${consolePortal.url}/v3/admin/apps/${clientId}`);
  expect(await read.text()).not.toContain(first);

  await page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-open').click();
  await page.getByTestId('app-rotate').click();
  await confirmWithReason(page, 'Secret pasted in a public chat');
  await expect(page.getByTestId('app-secret-value')).toBeVisible();
  const second = (await page.getByTestId('app-secret-value').textContent())!.trim();
  expect(second).toMatch(/^[\w-]{40,}$/);
  expect(second).not.toBe(first);
  await page.getByTestId('app-secret-dismiss').click();
  await expect(page.getByTestId('app-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(second);

  await page.getByTestId('app-disable').click();
  await confirmWithReason(page, 'Partner asked to pause the integration');
  await expect(page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-status')).toHaveText('Disabled');
  await expect(page.getByTestId('app-enable')).toBeVisible();

  // The operator audit log has each change with its reason, and no secret.
  const audit = await (await context.request.get(`${consolePortal.url}/v3/admin/audit?action=apps`)).text();
  expect(audit).toContain('Secret pasted in a public chat');
  for (const value of [first, second]) expect(audit).not.toContain(value);

  // Vietnamese on a phone: the same page, nothing sideways.
  await chooseLanguageSaved(page, 'vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-status')).toHaveText('Đã tắt');
  await looksRight(page, 'admin-apps-390-vi');
  await page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-open').click();
  await expect(page.getByTestId('app-details')).toBeVisible();
  await looksRight(page, 'admin-app-details-390-vi');
  await chooseLanguage(page, 'en');
  expect(errors).toEqual([]);
  await context.close();
});

test('the owner rotates the signing keys: new keys are published ahead of signing', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, owner);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${consolePortal.url}/admin/keys`);
  const rows = page.getByTestId('key-row');
  await expect(rows.first()).toBeVisible();
  const signing = await page.locator('[data-testid="key-row"][data-state="signing"]').count();
  expect(signing).toBe(2);
  await expect(page.locator('[data-testid="key-row"][data-state="signing"] [data-testid="key-drop"]')).toHaveCount(0);
  await looksRight(page, 'admin-keys-1440-en');

  await page.getByTestId('keys-rotate').click();
  await confirmWithReason(page, 'Yearly key rotation');
  await expect(page.locator('[data-testid="key-row"][data-state="published"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="key-row"][data-state="signing"]')).toHaveCount(2);
  await looksRight(page, 'admin-keys-rotated-1440-en');
  const published = (await (await context.request.get(`${consolePortal.url}/oidc/jwks`)).json()) as { keys: Array<{ kid: string }> };
  expect(published.keys).toHaveLength(4);

  await chooseLanguageSaved(page, 'vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.locator('[data-testid="key-row"][data-state="published"] [data-testid="key-state"]').first()).toHaveText('Đã công bố');
  await looksRight(page, 'admin-keys-390-vi');
  await chooseLanguage(page, 'en');
  expect(errors).toEqual([]);
  await context.close();
});

test('support reads the apps without any change, and the admin API refuses its rotation and the keys', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, support);
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin/apps`);
  await expect(page.getByTestId('app-row').filter({ hasText: 'Partner Portal' })).toBeVisible();
  await expect(page.getByTestId('app-register')).toHaveCount(0);
  await expect(page.getByTestId('admin-nav-keys')).toHaveCount(0);
  await page.getByTestId('app-row').filter({ hasText: 'Partner Portal' }).getByTestId('app-open').click();
  await expect(page.getByTestId('app-details')).toBeVisible();
  await expect(page.getByTestId('app-rotate')).toHaveCount(0);
  await expect(page.getByTestId('app-edit-submit')).toHaveCount(0);
  const rotate = await context.request.post(`${consolePortal.url}/v3/admin/apps/${clientId}/secret`, { data: { reason: 'support tries to rotate' } });
  expect([rotate.status(), ((await rotate.json()) as { code: string }).code]).toEqual([403, 'admin.forbidden']);
  const keys = await context.request.post(`${consolePortal.url}/v3/admin/signing-keys/rotate`, { data: { reason: 'support tries to rotate' } });
  expect(keys.status()).toBe(403);
  await looksRight(page, 'admin-apps-support-1440-en');
  await context.close();
});

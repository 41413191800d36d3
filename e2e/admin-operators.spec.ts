import { request, test, type APIResponse, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { chooseLanguage, pageErrors } from './support/helpers';
import { expect, uniqueEmail } from './support/mail';
import { CONSOLE_OWNER, ConsolePortal, looksRight, type Person } from './support/operators';

/**
 * The Operators and API keys pages, on a portal of its own: the owner (CONSOLE_OWNER) gives
 * support to another account with a reason; the new operator sees the console, makes an
 * operator API key there (shown once) and calls the admin API with it over HTTP, where the
 * key's scopes and the operator's role both hold. The owner then takes the role away and the
 * console, the session and the key refuse the former operator. A support operator never
 * reaches the owner-only page or its endpoints. At 1440 and 390 px, in both languages.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const owner = CONSOLE_OWNER;
const helper: Person = { email: uniqueEmail('ops-helper'), password: PASSWORD, fullName: 'Hà Helper' };
const stranger: Person = { email: uniqueEmail('ops-stranger'), password: PASSWORD, fullName: 'Sơn Stranger' };

const portal = new ConsolePortal('operators');
/** The key the new operator made in the console (pk_…), for the HTTP calls of the tests after. */
let helperKey = '';
/**
 * The new operator's session (its cookies) from before the role goes: the last test checks it is
 * refused after. Kept rather than signed in again: each sign-in takes a fresh authenticator code,
 * and the server takes only about one a time step once the first few are used.
 */
let helperSession: Awaited<ReturnType<BrowserContext['storageState']>>;

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async ({ playwright }) => {
  await portal.setUp(playwright, { people: [helper, stranger], twoStep: [helper] });
});

test.afterAll(async () => {
  await portal.close();
});

async function signedIn(browser: Browser, person: Person, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width > 400 ? 900 : 844 } });
  await portal.signInAs(context, person);
  return { context, page: await context.newPage() };
}

async function confirmWithReason(page: Page, reason: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  // The API's rule: 3 characters at least, once trimmed.
  await dialog.getByTestId('action-reason').fill('  ok ');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  await dialog.getByTestId('action-reason').fill(reason);
  await dialog.getByTestId('action-confirm').click();
  await expect(dialog).toBeHidden();
}

const code = async (response: APIResponse) => [response.status(), ((await response.json()) as { code?: string }).code];

test('the owner gives support to another account on the Operators page, with a reason', async ({ browser }) => {
  const { context, page } = await signedIn(browser, owner);
  const errors = pageErrors(page);
  await page.goto(`${portal.url}/admin`);
  await page.getByTestId('admin-nav-operators').click();
  await expect(page).toHaveURL(/\/admin\/operators$/);
  const ownerRow = page.getByTestId('operator-row').filter({ hasText: owner.email });
  await expect(ownerRow.getByTestId('operator-role-badge')).toHaveAttribute('data-role', 'owner');
  await looksRight(page, 'admin-operators-1440-en');
  // The active menu entry under the pointer keeps a readable contrast.
  await page.getByTestId('admin-nav-operators').hover();
  expect(await seriousViolations(page)).toEqual([]);

  // An address without an activated account: the dialog says so and nothing changes.
  await page.getByTestId('operator-email').fill('nobody-here@example.test');
  await page.getByTestId('operator-grant').click();
  await page.getByRole('dialog').getByTestId('action-reason').fill('Joins the support desk');
  await page.getByRole('dialog').getByTestId('action-confirm').click();
  await expect(page.getByRole('dialog').getByTestId('action-error')).toHaveText('No activated account has this email');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await page.getByTestId('operator-email').fill(helper.email.toUpperCase());
  await page.getByTestId('operator-role').selectOption('support');
  await page.getByTestId('operator-grant').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await looksRight(page, 'admin-operators-grant-dialog-1440-en');
  await confirmWithReason(page, 'Joins the support desk');
  const helperRow = page.getByTestId('operator-row').filter({ hasText: helper.email });
  await expect(helperRow.getByTestId('operator-role-badge')).toHaveAttribute('data-role', 'support');

  // The last owner cannot be taken away: the server refuses and the dialog says why.
  await ownerRow.getByTestId('operator-revoke').click();
  await page.getByRole('dialog').getByTestId('action-reason').fill('Testing the last owner rule');
  await page.getByRole('dialog').getByTestId('action-confirm').click();
  await expect(page.getByRole('dialog').getByTestId('action-error')).toContainText('at least one owner');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(ownerRow.getByTestId('operator-role-badge')).toHaveAttribute('data-role', 'owner');

  // Vietnamese, then a phone: nothing scrolls sideways.
  await chooseLanguage(page, 'vi');
  await expect(page.getByRole('heading', { level: 1, name: 'Người vận hành' })).toBeVisible();
  await looksRight(page, 'admin-operators-1440-vi');
  await page.setViewportSize({ width: 390, height: 844 });
  await looksRight(page, 'admin-operators-390-vi');
  await chooseLanguage(page, 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();
  await looksRight(page, 'admin-operators-390-en');
  expect(errors).toEqual([]);
  await context.close();
});

test('the new operator sees the console, makes an API key shown once, and calls the admin API with it: scopes and roles hold', async ({ browser }) => {
  const { context, page } = await signedIn(browser, helper);
  const errors = pageErrors(page);
  await page.goto(`${portal.url}/admin`);
  await expect(page.getByTestId('admin-nav-people')).toBeVisible();
  // Support's menu has no Operators page, and typing its address shows the not-found page.
  await expect(page.getByTestId('admin-nav-operators')).toHaveCount(0);
  await page.goto(`${portal.url}/admin/operators`);
  await expect(page.getByTestId('error-status')).toHaveText('404');

  await page.getByTestId('admin-nav-apiKeys').click();
  await expect(page).toHaveURL(/\/admin\/api-keys$/);
  await expect(page.getByTestId('operator-keys-empty')).toBeVisible();
  await page.getByTestId('operator-key-name').fill('Support script');
  await page.locator('input[data-scope="admin:people"]').check();
  await page.getByTestId('operator-key-create').click();
  await confirmWithReason(page, 'Nightly export of the support queue');
  const value = page.getByTestId('operator-key-value');
  await expect(value).toHaveText(/^pk_[A-Za-z0-9_-]{43}$/);
  helperKey = (await value.textContent())!;
  await looksRight(page, 'admin-api-keys-shown-1440-en');
  await page.getByTestId('operator-key-dismiss').click();
  await expect(page.getByTestId('operator-key-shown')).toHaveCount(0);
  const row = page.getByTestId('operator-key-row').filter({ hasText: 'Support script' });
  await expect(row).toContainText('admin:dashboard admin:people');
  // The list holds the prefix, never the key: not on the page, not in the list's answer.
  await expect(page.locator('body')).not.toContainText(helperKey);
  const listed = await context.request.get(`${portal.url}/v3/admin/api-keys`);
  expect(await listed.text()).not.toContain(helperKey);
  await page.setViewportSize({ width: 390, height: 844 });
  await looksRight(page, 'admin-api-keys-390-en');
  expect(errors).toEqual([]);
  await context.close();

  // Over HTTP with the key alone (no cookie): what its scopes and its operator's role allow.
  const bearer = { authorization: `Bearer ${helperKey}` };
  const api = await request.newContext();
  try {
    const me = await api.get(`${portal.url}/v3/admin/me`, { headers: bearer });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { email: string; roles: string[] }).roles).toEqual(['support']);
    expect((await api.get(`${portal.url}/v3/admin/people?q=${encodeURIComponent(owner.email.slice(0, 10))}`, { headers: bearer })).status()).toBe(200);
    // A scope the key does not hold, on an area support may use.
    expect(await code(await api.get(`${portal.url}/v3/admin/apps`, { headers: bearer }))).toEqual([403, 'admin.scope_missing']);
    // The scope it holds, on the owner-only endpoints: the role decides.
    expect(await code(await api.get(`${portal.url}/v3/admin/operators`, { headers: bearer }))).toEqual([403, 'admin.forbidden']);
    expect(await code(await api.post(`${portal.url}/v3/admin/operators`, { headers: bearer, data: { email: helper.email, role: 'owner', reason: 'Promote myself' } }))).toEqual([403, 'admin.forbidden']);
    // A key never makes keys.
    expect((await api.post(`${portal.url}/v3/admin/api-keys`, { headers: bearer, data: { name: 'Copy', scopes: ['admin:people'], reason: 'Escalate' } })).status()).toBe(403);
  } finally {
    await api.dispose();
  }
});

test("a support operator's session cannot reach the owner-only endpoints either", async ({ browser }) => {
  const context = await browser.newContext();
  await portal.signInAs(context, helper);
  const ownerId = await (async () => {
    const ownerContext = await browser.newContext();
    await portal.signInAs(ownerContext, owner);
    const list = (await (await ownerContext.request.get(`${portal.url}/v3/admin/operators`)).json()) as Array<{ user_id: string; email: string }>;
    await ownerContext.close();
    return list.find((operator) => operator.email === owner.email)!.user_id;
  })();
  expect(await code(await context.request.get(`${portal.url}/v3/admin/operators`))).toEqual([403, 'admin.forbidden']);
  expect(await code(await context.request.post(`${portal.url}/v3/admin/operators`, { data: { email: stranger.email, role: 'support', reason: 'Bring a friend' } }))).toEqual([403, 'admin.forbidden']);
  expect(await code(await context.request.delete(`${portal.url}/v3/admin/operators/${ownerId}/roles/owner`, { data: { reason: 'Take over' } }))).toEqual([403, 'admin.forbidden']);
  expect(await code(await context.request.get(`${portal.url}/v3/admin/audit`))).toEqual([403, 'admin.forbidden']);
  helperSession = await context.storageState();
  await context.close();
});

test('the owner takes the role away: the console, the session and the key refuse the former operator', async ({ browser }) => {
  // The former operator, signed in before the change.
  const helperContext = await browser.newContext({ storageState: helperSession });
  expect((await helperContext.request.get(`${portal.url}/v3/admin/me`)).status()).toBe(200);

  const { context, page } = await signedIn(browser, owner, 390);
  await page.goto(`${portal.url}/admin/operators`);
  const row = page.getByTestId('operator-row').filter({ hasText: helper.email });
  await row.locator('[data-testid="operator-revoke"][data-role="support"]').click();
  await confirmWithReason(page, 'Left the support desk');
  await expect(row).toHaveCount(0);
  await context.close();

  expect(await code(await helperContext.request.get(`${portal.url}/v3/admin/me`))).toEqual([403, 'admin.forbidden']);
  expect(await code(await helperContext.request.get(`${portal.url}/v3/admin/operators`))).toEqual([403, 'admin.forbidden']);
  const page2 = await helperContext.newPage();
  for (const where of ['/admin', '/admin/operators', '/admin/api-keys']) {
    await page2.goto(`${portal.url}${where}`);
    await expect(page2.getByTestId('error-status')).toHaveText('404');
  }
  // Without a role the account's operator keys are gone.
  const api = await request.newContext();
  const byKey = await api.get(`${portal.url}/v3/admin/me`, { headers: { authorization: `Bearer ${helperKey}` } });
  expect([401, 403]).toContain(byKey.status());
  await api.dispose();
  await helperContext.close();
});

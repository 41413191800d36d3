import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { pageErrors, SCREENSHOTS_ONLY, screenshotsOn, snap } from './support/helpers';
import { codeIn, createActivatedAccount, expect, linkIn, test, uniqueEmail, type Portal } from './support/mail';

/**
 * Account self-service in a real browser against the real server: profile (with the
 * spec's field rules in both languages), avatar, primary email change by the mailed code,
 * API keys used as bearer tokens and revoked, account deletion and its cancellation at
 * sign-in, the notification bell, and screenshots of every page in both brands and
 * languages. Each test makes its own account: these tests change and delete it.
 */

const PASSWORD = 'Orchid-Lantern-Harbor-58';

interface Account {
  email: string;
  password: string;
  fullName: string;
}

async function newAccount(request: APIRequestContext, portal: Portal, label: string, origin = portal.platformUrl): Promise<Account> {
  const account = { email: uniqueEmail(label), password: PASSWORD, fullName: 'Ada Lovelace' };
  await createActivatedAccount(request, portal, account, origin);
  return account;
}

/**
 * One account for the tests of a describe block (sign-ups are limited to 10 an hour per IP,
 * and every spec on the server signs up from 127.0.0.1). The block's tests run in order.
 */
function sharedAccount(label: string): () => Account {
  let account: Account | undefined;
  test.describe.configure({ mode: 'default' });
  test.beforeAll(async ({ portal, playwright }) => {
    const request = await playwright.request.newContext();
    account = await newAccount(request, portal, label);
    await request.dispose();
  });
  return () => {
    if (!account) throw new Error('the shared account was not created');
    return account;
  };
}

/** Signs the browser context in through the API: the session cookie lands in its jar. */
async function signIn(context: BrowserContext, origin: string, account: Pick<Account, 'email' | 'password'>, language: 'en' | 'vi' = 'en'): Promise<void> {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
  // The page's language is the visitor's choice (lang cookie), whatever a previous test saved on the account.
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
}

/**
 * Signs a page in from inside the browser: Node (and so APIRequestContext) cannot resolve
 * locker.localhost, Chromium can (e2e/support/chromium.ts).
 */
async function signInInBrowser(page: Page, origin: string, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto(`${origin}/login/explore`);
  const status = await page.evaluate(
    async ({ email, password }) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
    { email: account.email, password: account.password },
  );
  expect(status).toBe(200);
}

/** A solid-colour PNG, built here so the test needs no fixture file. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (data: Buffer) => {
    let crc = 0xffffffff;
    for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

const toast = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });

test.describe('profile', () => {
  const shared = sharedAccount('profile');

  test('the field rules show in English and in Vietnamese; a valid profile is saved', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    const errors = pageErrors(page);
    await page.goto('/account');
    const form = page.getByTestId('profile-form');
    await expect(form.getByLabel('Full name')).toHaveValue('Ada Lovelace');

    await form.getByLabel('Full name').fill('   ');
    await form.getByLabel('Username').fill('ada.lovelace');
    await form.getByLabel('Phone').fill('+44 20 7946');
    await form.getByLabel('Company').fill('Babbage & Co.');
    await form.getByLabel('Organization').fill('Royal/Society');
    await form.getByLabel('Address').fill('12, St James Square');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.getByText('This field may not be blank.')).toBeVisible();
    await expect(form.getByText('Enter a username of letters and digits only')).toBeVisible();
    await expect(form.getByText('Enter a phone number of digits only')).toBeVisible();
    await expect(form.getByText('Enter a company name of letters and digits only')).toBeVisible();
    await expect(form.getByText('Enter an organization name of letters and digits only')).toBeVisible();
    await expect(form.getByText('Enter an address of letters and digits only')).toBeVisible();
    await snap(page, 'account-profile-invalid-en');

    // The same messages in Vietnamese, from the preferences' language switch.
    await page.getByTestId('preferences-language').getByText('Tiếng Việt').click();
    await expect(form.getByText('Trường này không được để trống.')).toBeVisible();
    await expect(form.getByText('Nhập tên người dùng chỉ gồm chữ cái và chữ số')).toBeVisible();
    await expect(form.getByText('Nhập số điện thoại chỉ gồm chữ số')).toBeVisible();
    await expect(form.getByText('Nhập tên công ty chỉ gồm chữ cái và chữ số')).toBeVisible();
    await expect(form.getByText('Nhập tên tổ chức chỉ gồm chữ cái và chữ số')).toBeVisible();
    await expect(form.getByText('Nhập địa chỉ chỉ gồm chữ cái và chữ số')).toBeVisible();
    await snap(page, 'account-profile-invalid-vi');
    // Vietnamese-only option (the spec's permissions).
    await expect(page.getByTestId('vietnamese-only')).toBeVisible();

    await form.getByLabel('Họ và tên').fill('Nguyễn Thị Hồng');
    await form.getByLabel('Tên người dùng').fill('hongnguyen');
    await form.getByLabel('Số điện thoại').fill('0912345678');
    // The spec's validation rules: company, organization and address are alphanumeric only (A to Z and digits, no spaces).
    await form.getByLabel('Công ty').fill('Công ty An ninh mạng');
    await expect(form.getByText('Nhập tên công ty chỉ gồm chữ cái và chữ số')).toBeVisible();
    await form.getByLabel('Công ty').fill('CyStack');
    await form.getByLabel('Tổ chức').fill('OWASPHanoi');
    await form.getByLabel('Địa chỉ').fill('So1DaiCoViet');
    await form.getByTestId('country-select').click();
    await form.getByTestId('country-select').fill('Việt');
    await page.getByRole('option', { name: /Việt Nam/ }).first().click();
    await page.getByRole('button', { name: 'Lưu thay đổi' }).click();
    await expect(toast(page, 'Đã lưu thông tin cá nhân của bạn')).toBeVisible();
    await expect(page.getByTestId('header-user-name')).toHaveText('Nguyễn Thị Hồng');

    const me = await (await context.request.get('/v3/sso/me')).json();
    expect(me).toMatchObject({
      full_name: 'Nguyễn Thị Hồng',
      username: 'hongnguyen',
      phone: '0912345678',
      company: 'CyStack',
      organization: 'OWASPHanoi',
      address: 'So1DaiCoViet',
      country: 'VN',
      language: 'vi',
      customer_language: 'vi',
    });
    await snap(page, 'account-profile-saved-vi');
    expect(errors).toEqual([]);
  });

  test('an avatar is checked in the browser, uploaded, and shown from the server', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    await page.goto('/account');
    const file = page.getByTestId('avatar-file');

    // Not a picture: refused before any request.
    let uploads = 0;
    page.on('request', (sent) => {
      if (sent.url().endsWith('/v3/sso/me/avatar') && sent.method() === 'PUT') uploads += 1;
    });
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(toast(page, 'Choose a PNG, JPEG or WebP image')).toBeVisible();
    expect(uploads).toBe(0);

    await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(64, 64, [29, 78, 216]) });
    await expect(toast(page, 'Your avatar has been updated')).toBeVisible();
    expect(uploads).toBe(1);
    const me = await (await context.request.get('/v3/sso/me')).json();
    expect(me.avatar_url).toBeTruthy();
    const image = page.getByTestId('avatar-image').locator('img');
    await expect(image).toHaveAttribute('src', me.avatar_url);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    await snap(page, 'account-avatar-uploaded');

    await page.getByRole('button', { name: 'Remove picture' }).click();
    await expect(toast(page, 'Your avatar has been removed')).toBeVisible();
    expect((await (await context.request.get('/v3/sso/me')).json()).avatar_url).toBeNull();
  });
  test('privacy choices are saved, and the data downloads as a JSON file', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    await page.goto('/privacy');
    const marketing = page.getByTestId('privacy-marketing');
    await expect(marketing).toBeVisible();
    const before = (await (await context.request.get('/v3/sso/me/privacy')).json()) as { marketing_emails: boolean; usage_data: boolean };
    await page.getByRole('switch', { name: 'Marketing emails' }).click();
    await expect(toast(page, 'Your privacy settings have been saved')).toBeVisible();
    await expect.poll(async () => (await (await context.request.get('/v3/sso/me/privacy')).json()).marketing_emails).toBe(!before.marketing_emails);
    await page.reload();
    if (before.marketing_emails) await expect(marketing).not.toBeChecked();
    else await expect(marketing).toBeChecked();

    const download = page.waitForEvent('download');
    await page.getByTestId('download-data').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^cystack-account-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await file.path())!, 'utf8'));
    expect(JSON.stringify(data)).toContain(account.email);
    await snap(page, 'privacy-saved');
  });
});

test.describe('email', () => {
  const shared = sharedAccount('email');

  test('a recovery email is added with its code, then removed', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    const recovery = uniqueEmail('recovery-alt');
    await page.goto('/email');
    await page.getByTestId('add-recovery-email').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('recovery-email').fill(recovery);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const code = codeIn(await portal.waitForMail(recovery));
    await page.getByTestId('otp-input').locator('input').first().fill(code);
    await expect(toast(page, 'Your recovery email is verified')).toBeVisible();
    await expect(page.getByTestId('recovery-email-row')).toContainText(recovery);
    await expect(page.getByTestId('recovery-email-row')).toContainText('Verified');

    await page.getByTestId('recovery-email-row').getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('confirm-action').click();
    await expect(toast(page, 'Your recovery email has been removed')).toBeVisible();
    await expect(page.getByTestId('add-recovery-email')).toBeVisible();
  });

  test('the primary email changes with the code mailed to the new address', async ({ page, context, portal, request }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    const newEmail = uniqueEmail('email-new');
    await page.goto('/email');
    await expect(page.getByTestId('primary-email')).toHaveText(account.email);

    await page.getByTestId('change-email').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('new-email').fill(account.email);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByText('This is already your email')).toBeVisible();

    await dialog.getByTestId('new-email').fill(newEmail);
    await snap(page, 'email-change-dialog');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('dialog', { name: 'Check your new inbox' })).toBeVisible();
    await expect(page.getByText(`We sent a 6-digit code to ${newEmail}`)).toBeVisible();
    await snap(page, 'email-change-code');

    const code = codeIn(await portal.waitForMail(newEmail));
    // A wrong code stays in the dialog.
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByTestId('otp-input').locator('input').first().fill(wrong);
    await expect(page.getByText('Verification code incorrect or expired')).toBeVisible();
    await page.getByTestId('otp-input').locator('input').first().fill(code);
    await expect(toast(page, `Your email is now ${newEmail}`)).toBeVisible();
    await expect(page.getByTestId('primary-email')).toHaveText(newEmail);
    await snap(page, 'email-changed');
    const oldEmail = account.email;
    // The block's later tests sign in with the address the account has now.
    account.email = newEmail;

    // The new address signs in; the old one does not.
    const fresh = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: newEmail, password: PASSWORD } });
    expect(fresh.status()).toBe(200);
    const old = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: oldEmail, password: PASSWORD } });
    expect(old.status()).toBe(400);
  });

  test('an education email is confirmed from its mailed link, once', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    const school = uniqueEmail('school');
    await page.goto('/email');
    await page.getByLabel('Education email').fill(school);
    await page.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(page.getByText(`We sent a confirmation link to ${school}`)).toBeVisible();
    const link = linkIn(await portal.waitForMail(school), '/confirmation/education-email/');
    const path = new URL(link).pathname;

    await page.goto(path);
    await expect(page.getByTestId('education-email-result')).toContainText(`${school} is now the education email of your account.`);
    await snap(page, 'education-email-confirmed');
    await page.goto(path);
    await expect(page.getByTestId('education-email-result')).toContainText('This confirmation link has expired or has already been used');
    await snap(page, 'education-email-used');
    await page.goto('/email');
    await expect(page.getByText(school, { exact: true })).toBeVisible();
  });
});

test.describe('API keys', () => {
  test('a key is shown once, works within its scopes only, and stops working when revoked', async ({ page, context, portal, request, playwright }) => {
    const account = await newAccount(request, portal, 'keys');
    await signIn(context, portal.platformUrl, account);
    await page.goto('/api-keys');
    await expect(page.getByText('You have no API keys yet.')).toBeVisible();

    await page.getByTestId('create-api-key').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('CI deploy');
    // 'me:read' is ticked by default; nothing else.
    await expect(dialog.getByRole('checkbox', { name: /me:read/ })).toBeChecked();
    await dialog.getByLabel('Expires after (days)').fill('30');
    await snap(page, 'api-keys-create-dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const value = dialog.getByTestId('created-key-value');
    await expect(value).toHaveText(/^pk_/);
    const key = (await value.textContent())!.trim();
    await expect(dialog.getByText('This is the only time the key is shown')).toBeVisible();
    await snap(page, 'api-keys-created');
    await dialog.getByRole('button', { name: 'I have copied the key' }).click();

    // The list shows the prefix only; the key is nowhere on the page any more.
    const row = page.getByTestId('api-key-row').filter({ hasText: 'CI deploy' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('me:read');
    expect(await page.content()).not.toContain(key);
    await snap(page, 'api-keys-list');

    // A request context with no cookies: the key alone speaks for the user.
    const bare = await playwright.request.newContext();
    const auth = { Authorization: `Bearer ${key}` };
    const me = await bare.get(`${portal.platformUrl}/v3/sso/me`, { headers: auth });
    expect(me.status()).toBe(200);
    expect((await me.json()).email).toBe(account.email);
    const outside = await bare.get(`${portal.platformUrl}/v3/notifications`, { headers: auth });
    expect(outside.status()).toBe(403);
    const write = await bare.put(`${portal.platformUrl}/v3/sso/me`, { headers: auth, data: { full_name: 'Mallory', language: 'en' } });
    expect(write.status()).toBe(403);
    const keys = await bare.get(`${portal.platformUrl}/v3/sso/me/api-keys`, { headers: auth });
    expect(keys.status()).toBe(403);
    // The list says when the key was last used.
    await expect.poll(async () => (await (await context.request.get('/v3/sso/me/api-keys')).json())[0]?.last_used_at).toBeTruthy();
    await page.reload();
    await expect(row).not.toContainText('Never');

    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByTestId('confirm-action').click();
    await expect(toast(page, 'The key CI deploy has been revoked')).toBeVisible();
    await expect(page.getByText('You have no API keys yet.')).toBeVisible();
    const revoked = await bare.get(`${portal.platformUrl}/v3/sso/me`, { headers: auth });
    expect(revoked.status()).toBe(401);
    await bare.dispose();
  });
});

test.describe('account deletion', () => {
  test('deleting signs out to /login/explore; signing in within the window offers to cancel it', async ({ page, context, portal, request }) => {
    const account = await newAccount(request, portal, 'delete');
    await signIn(context, portal.platformUrl, account);
    await page.goto('/account');
    await expect(page.getByText('Your account can be restored within 14 days; after that its personal data is deleted.', { exact: false }).first()).toBeVisible();

    await page.getByTestId('delete-account').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByTestId('confirm-word').fill('delete');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByText('Type DELETE to confirm').last()).toBeVisible();
    await snap(page, 'account-delete-dialog');
    await dialog.getByTestId('confirm-word').fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/login\/explore$/);
    await snap(page, 'account-deleted-explore');

    // The session is over on the server too.
    expect((await context.request.get('/v3/sso/me')).status()).toBe(401);

    // Signing in within the window: 403 account.deletion_pending with what the offer needs.
    const pending = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: PASSWORD } });
    expect(pending.status()).toBe(403);
    const body = await pending.json();
    expect(body.code).toBe('account.deletion_pending');
    expect(body.details?.restore_token).toBeTruthy();

    // Through the sign-in pages: the password step offers to cancel the deletion (RestoreAccountDialog).
    await page.goto('/login');
    await page.getByLabel('Email or username').fill(account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const offer = page.getByTestId('restore-account-dialog');
    await expect(offer).toBeVisible();
    await expect(offer).toContainText('Your account is scheduled for deletion on');
    await snap(page, 'account-deletion-pending-login');
    // Declining leaves the visitor on the sign-in page, the offer one click away.
    await page.getByRole('button', { name: 'Not now' }).click();
    await expect(offer).toBeHidden();
    await expect(page).toHaveURL(/\/login\/password/);
    await expect(page.getByTestId('deletion-pending')).toContainText('scheduled for deletion');
    await page.getByTestId('deletion-pending').getByRole('button', { name: 'Restore my account' }).click();
    await page.getByRole('button', { name: 'Cancel deletion and restore' }).click();
    // Signed in like any sign-in: the home page, with the session cookie set.
    await expect(page).toHaveURL(`${portal.platformUrl}/`);
    expect((await context.request.get('/v3/sso/me')).status()).toBe(200);
    const again = await request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: account.email, password: PASSWORD } });
    expect(again.status()).toBe(200);
    expect((await (await request.get(`${portal.platformUrl}/v3/sso/me`)).json()).deletion_due_at).toBeNull();
  });
});

test.describe('notifications', () => {
  test('a click marks the notification read, reloads the list and goes where its type says', async ({ page, context, portal, request }) => {
    const account = await newAccount(request, portal, 'bell');
    await signIn(context, portal.platformUrl, account);
    // Creating a key is a security event: it leaves a notification (type 'other') behind.
    const created = await context.request.post('/v3/sso/me/api-keys', { data: { name: 'bell', scopes: ['me:read'] } });
    expect(created.status()).toBeLessThan(300);
    await context.request.post('/v3/sso/me/api-keys', { data: { name: 'bell two', scopes: ['me:read'] } });

    const list = async () => (await (await context.request.get('/v3/notifications')).json()) as { items: { id: string; read: boolean; type: string }[]; unread_count: number };
    await expect.poll(async () => (await list()).unread_count).toBeGreaterThanOrEqual(2);
    const before = await list();

    // No server path makes a product notification (reports, programs, transactions) yet: the
    // list the browser gets is rewritten so one real, unread notification is a transaction.
    const transactionId = before.items.find((item) => !item.read)!.id;
    await page.route('**/v3/notifications?*', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      for (const item of json.items) if (item.id === transactionId) Object.assign(item, { type: 'transactions', metadata: { transaction_id: 't-1' } });
      await route.fulfill({ response, json });
    });

    await page.goto('/');
    const bell = page.getByTestId('notifications-bell');
    await expect(bell).toHaveAccessibleName(`Notifications, ${before.unread_count} unread`);
    await bell.click();
    const menu = page.getByTestId('notifications-menu');
    await expect(menu.getByTestId('notification-item')).toHaveCount(before.items.length);
    await snap(page, 'notifications-menu');

    // 'other': marked read, the list reloads, the page stays.
    const otherId = before.items.find((item) => !item.read && item.id !== transactionId)!.id;
    const otherIndex = before.items.findIndex((item) => item.id === otherId);
    const marked = page.waitForRequest((sent) => sent.method() === 'PUT' && sent.url().endsWith(`/v3/notifications/${otherId}`));
    const reloaded = page.waitForRequest((sent) => sent.method() === 'GET' && /\/v3\/notifications\?/.test(sent.url()));
    await menu.getByTestId('notification-item').nth(otherIndex).click();
    expect((await marked).postDataJSON()).toEqual({ read: true });
    await reloaded;
    await expect(page).toHaveURL(`${portal.platformUrl}/`);
    await expect(bell).toHaveAccessibleName(`Notifications, ${before.unread_count - 1} unread`);
    expect((await list()).items.find((item) => item.id === otherId)?.read).toBe(true);

    // 'transactions': marked read, then the wallet.
    await bell.click();
    const transactionIndex = before.items.findIndex((item) => item.id === transactionId);
    await page.getByTestId('notifications-menu').getByTestId('notification-item').nth(transactionIndex).click();
    await expect(page).toHaveURL(`${portal.platformUrl}/wallet`);
    expect((await list()).items.find((item) => item.id === transactionId)?.read).toBe(true);
  });
});

test.describe('screenshots', () => {
  test.skip(!screenshotsOn, SCREENSHOTS_ONLY);
  const shared = sharedAccount('shots');
  const pagesToShoot = ['/', '/account', '/email', '/privacy', '/api-keys'] as const;
  for (const brand of ['platform', 'locker'] as const) {
    for (const language of ['en', 'vi'] as const) {
      test(`${brand} ${language}: every account page`, async ({ browser, portal }) => {
        test.setTimeout(90_000);
        const origin = brand === 'platform' ? portal.platformUrl : portal.lockerUrl;
        // One database behind both brands: the account is made through the platform host.
        const account = shared();
        const context = await browser.newContext({ baseURL: origin });
        await context.addCookies([{ name: 'lang', value: language, url: origin }]);
        const page = await context.newPage();
        await signInInBrowser(page, origin, account);
        const errors = pageErrors(page);
        for (const path of pagesToShoot) {
          await page.goto(path);
          await expect(page.locator('main h1').first()).toBeVisible();
          await page.waitForLoadState('networkidle');
          await snap(page, `account-${brand}-${language}-${path === '/' ? 'home' : path.slice(1)}`);
        }
        await page.goto('/');
        await page.getByTestId('notifications-bell').click();
        await snap(page, `account-${brand}-${language}-notifications`);
        await page.keyboard.press('Escape');
        await page.goto('/api-keys');
        await page.getByTestId('create-api-key').click();
        await snap(page, `account-${brand}-${language}-create-key`);
        await page.goto('/account');
        await page.getByTestId('delete-account').click();
        await snap(page, `account-${brand}-${language}-delete`);
        await page.goto('/email');
        await page.getByTestId('change-email').click();
        await snap(page, `account-${brand}-${language}-change-email`);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/account');
        await expect(page.locator('main h1').first()).toBeVisible();
        await snap(page, `account-${brand}-${language}-account-mobile`);
        await context.clearCookies();
        await context.addCookies([{ name: 'lang', value: language, url: origin }]);
        await page.goto('/login/explore');
        await expect(page.locator('h1').first()).toBeVisible();
        await page.setViewportSize({ width: 1280, height: 800 });
        await snap(page, `account-${brand}-${language}-explore`);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});

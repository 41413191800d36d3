import { newAccount, signIn } from './support/accounts';
import { snap } from './support/helpers';
import { expect, test } from './support/mail';

/**
 * The notification bell in a real browser against the real server: a click marks a notification
 * read and goes where its type says. The test makes its own account.
 */

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

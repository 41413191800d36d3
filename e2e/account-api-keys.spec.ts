import { newAccount, signIn, toast } from './support/accounts';
import { snap } from './support/helpers';
import { expect, test } from './support/mail';

/**
 * API keys in a real browser against the real server: made on the page and shown once, used as
 * bearer tokens within their scopes only, and revoked. The test makes its own account.
 */

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

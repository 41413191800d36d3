import { newAccount, PASSWORD, signIn } from './support/accounts';
import { snap } from './support/helpers';
import { expect, test } from './support/mail';

/**
 * Deleting the account in a real browser against the real server, and cancelling the deletion
 * at sign-in within the window. The test makes its own account, and deletes it.
 */

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

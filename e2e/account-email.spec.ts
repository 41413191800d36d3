import { PASSWORD, sharedAccount, signIn, toast } from './support/accounts';
import { snap } from './support/helpers';
import { codeIn, expect, linkIn, test, uniqueEmail } from './support/mail';

/**
 * The account's email addresses in a real browser against the real server, each confirmed from
 * the mail it gets: a recovery email added and removed, the primary email changed by the code
 * mailed to the new address, an education email confirmed from its link. One account for the
 * block: its tests run in order, and those after the primary email's change sign in with the new
 * address.
 */

test.describe('email', () => {
  test.describe.configure({ mode: 'default' });
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

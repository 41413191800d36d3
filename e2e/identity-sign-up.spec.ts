import { signInThroughPages } from './support/accounts';
import { cspViolations, pageErrors, snap } from './support/helpers';
import { createActivatedAccount, expect, linkIn, test, uniqueEmail } from './support/mail';

/**
 * The life of an account in a real browser against the real server, its mail caught by a real
 * SMTP peer (support/mail.ts): sign-up with the ALTCHA widget solving in the browser, activation
 * from the mailed link, sign-in (returning where it started) and sign-out, and the account not
 * activated yet. Screenshots go to e2e/screenshots/identity-*.png.
 */

const PASSWORD = 'Correct-Horse-42-battery';

test.describe('sign-up, activation, sign-in, sign-out', () => {
  test('a new account from /register to the home page and out to /login/explore', async ({ page, portal }) => {
    // A whole life of an account (captcha, mail, five pages): 28 s alone here, past 30 s in a loaded CI run.
    test.slow();
    const errors = pageErrors(page);
    const csp = cspViolations(page);
    const email = uniqueEmail('signup');

    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    // The strength meter loads its dictionaries on the first character.
    await expect(page.getByTestId('password-strength')).toBeVisible();
    await page.getByRole('checkbox', { name: /I agree to the/ }).check();
    // The ALTCHA widget solves its proof of work in this browser (from the first focus in the form).
    await expect(page.locator('altcha-widget')).toBeVisible();
    await snap(page, 'identity-register-filled');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/register\/verifying-email$/, { timeout: 20_000 });
    await expect(page.getByText(`We sent an activation link to ${email}`)).toBeVisible();
    await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
    await snap(page, 'identity-verifying-email');

    const mail = await portal.waitForMail(email, { subject: /activate/i });
    const link = linkIn(mail, '/confirmation/');
    expect(new URL(link).origin).toBe(portal.platformUrl);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Your account is activated' })).toBeVisible();
    await snap(page, 'identity-confirmation-activated');

    // The link is single use: opened again, it says so and offers a new one.
    const again = await page.context().newPage();
    await again.goto(link);
    await expect(again.getByText('This activation link has expired or has already been used')).toBeVisible();
    await again.close();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Email or username')).toHaveValue(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('login-identifier')).toHaveText(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await snap(page, 'identity-login-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expect(page).toHaveURL(`${portal.platformUrl}/`);
    await expect(page.getByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeVisible();
    await snap(page, 'identity-home-signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login\/explore$/);
    await snap(page, 'identity-signed-out-explore');
    // Signed out for real: the home page sends the visitor to sign-in again.
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);

    expect(errors, 'no uncaught page errors').toEqual([]);
    expect(csp, 'no CSP violations').toEqual([]);
  });

  test('a sign-in started elsewhere returns there (`next` kept through both steps)', async ({ page, portal, request }) => {
    const email = uniqueEmail('next');
    await createActivatedAccount(request, portal, { email, password: PASSWORD, fullName: 'Grace Hopper' });
    await page.goto('/login?next=%2Fsecurity');
    await page.getByLabel('Email or username').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/login\/password\?next=%2Fsecurity$/);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${portal.platformUrl}/security`);
  });

  test('an account not activated yet is told so, with a way to get the mail again', async ({ page, portal, request }) => {
    const email = uniqueEmail('inactive');
    const { solveAltcha } = await import('../packages/server/test/captcha');
    const challenge = await (await request.get(`${portal.platformUrl}/v3/sso/captcha/challenge`)).json();
    const signUp = await request.post(`${portal.platformUrl}/v3/sso/users`, {
      data: { full_name: 'Not Yet', email, password: PASSWORD, accept_terms: true, captcha: await solveAltcha(challenge) },
    });
    expect(signUp.status()).toBe(201);

    await signInThroughPages(page, email, PASSWORD);
    await expect(page.getByTestId('login-error')).toHaveText('Your account is not activated. Check your email');
    await page.getByRole('button', { name: 'Resend activation email' }).click();
    await expect(page.getByText(`If ${email} has an account waiting for activation, a new link is on its way.`)).toBeVisible();
    await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
    await snap(page, 'identity-login-not-activated');
    // The first mail, then the one asked for here.
    await portal.waitForMail(email, { subject: /activate/i, count: 2 });
  });
});

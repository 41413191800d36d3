import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { signIn } from './support/auth';
import { snap } from './support/helpers';
import { createActivatedAccount, linkIn, uniqueEmail, type Portal } from './support/mail';
import { noSeriousViolations, postFromPage, startOrganizationPortal, type OrganizationPortal } from './support/organizations';

/**
 * Organizations in Chromium: the owner invites from /organization, a new person
 * signs up from the mailed /register/:token link and appears as a member once activated, an
 * existing account accepts on the result screen, a member sees no admin action, a withdrawn
 * invitation says so. The organization is made with `npm run organizations` before the
 * spec's own server (with its own SMTP peer) starts, as an operator does.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const OWNER = uniqueEmail('org-owner');
const MEMBER = uniqueEmail('org-member');

let portal: Portal;
let organization: OrganizationPortal;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  organization = await startOrganizationPortal('orgs', { name: 'Acme Corp', owner: OWNER });
  ({ portal } = organization);
});

test.afterAll(() => organization?.close());

async function signedIn(context: BrowserContext, email: string, fullName: string): Promise<void> {
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName });
  await signIn(context, portal.platformUrl, { email, password: PASSWORD });
}

/** Invites from the organization page's form; the mailed link. */
async function inviteFromPage(page: Page, email: string, role: 'Member' | 'Admin' | 'Owner'): Promise<string> {
  const form = page.getByTestId('invite-form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption({ label: role });
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId('organization-invitation').filter({ hasText: email })).toBeVisible();
  const mail = await portal.waitForMail(email, { subject: /invited you to join Acme Corp/ });
  return linkIn(mail, '/');
}

test('the owner invites a new person, who signs up from the mail link and appears as a member', async ({ page, browser }) => {
  test.slow();
  await signedIn(page.context(), OWNER, 'Olivia Owner');
  await page.goto(`${portal.platformUrl}/`);
  // The owner administers it: its pages (members, audit log, company SSO) are under the Organization entry.
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/organization$/);
  await expect(page.getByRole('heading', { name: 'Acme Corp' })).toBeVisible();
  await expect(page.getByTestId('organization-member')).toHaveCount(1);
  await expect(page.getByTestId('organization-member').first()).toContainText('Owner');
  await noSeriousViolations(page, '/organization');

  const newcomer = uniqueEmail('org-newcomer');
  const link = await inviteFromPage(page, newcomer, 'Member');
  expect(new URL(link).pathname).toMatch(/^\/register\/[\w-]{20,}$/);

  const visitor = await browser.newContext();
  const signup = await visitor.newPage();
  await signup.goto(link);
  await expect(signup.getByRole('heading', { name: 'Join Acme Corp' })).toBeVisible();
  await expect(signup.getByLabel('Email', { exact: true })).toHaveValue(newcomer);
  await expect(signup.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
  await noSeriousViolations(signup, '/register/:token');
  await signup.getByLabel('Full name').fill('Nina Newcomer');
  await signup.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await signup.getByRole('checkbox', { name: /I agree to the/ }).check();
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(signup).toHaveURL(/\/register\/verifying-email$/, { timeout: 20_000 });
  const activation = await portal.waitForMail(newcomer, { subject: /activate/i });
  await signup.goto(linkIn(activation, '/confirmation/'));
  await expect(signup.getByRole('heading', { name: 'Your account is activated' })).toBeVisible();
  await visitor.close();

  await page.reload();
  const row = page.getByTestId('organization-member').filter({ hasText: newcomer });
  await expect(row).toContainText('Nina Newcomer');
  await expect(page.getByTestId('organization-invitation')).toHaveCount(0);

  // Role change and removal ask first.
  await row.getByLabel(`Role of ${newcomer}`).selectOption({ label: 'Admin' });
  await expect(page.getByRole('dialog', { name: `Make ${newcomer} Admin?` })).toBeVisible();
  await page.getByTestId('confirm-action').click();
  await expect(row.getByLabel(`Role of ${newcomer}`)).toHaveValue('admin');
  await row.getByRole('button', { name: `Remove ${newcomer}` }).click();
  await expect(page.getByRole('dialog', { name: `Remove ${newcomer}?` })).toBeVisible();
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('organization-member').filter({ hasText: newcomer })).toHaveCount(0);

  // The last owner is not offered Leave, and is told why.
  await expect(page.getByTestId('leave-organization')).toHaveCount(0);
  await expect(page.getByText('You are its only owner, so you cannot leave yet: make another member an owner first.')).toBeVisible();
});

test('an existing account signs in from the link and accepts on the result screen', async ({ page, browser }) => {
  await signIn(page.context(), portal.platformUrl, { email: OWNER, password: PASSWORD });
  await page.goto(`${portal.platformUrl}/organization`);
  const invitee = await browser.newContext();
  await createActivatedAccount(invitee.request, portal, { email: MEMBER, password: PASSWORD, fullName: 'Max Member' });
  const link = await inviteFromPage(page, MEMBER, 'Member');
  expect(new URL(link).pathname).toMatch(/^\/confirmation\/invitation\/[\w-]{20,}$/);

  const result = await invitee.newPage();
  await result.goto(link);
  await expect(result.getByTestId('invitation-summary')).toHaveText(`Acme Corp invited ${MEMBER} to join as a member.`);
  await noSeriousViolations(result, '/confirmation/invitation (signed out)');
  await result.getByTestId('invitation-sign-in').click();
  await expect(result).toHaveURL(/\/login\?next=/);
  await result.getByLabel('Email or username').fill(MEMBER);
  await result.getByRole('button', { name: 'Continue' }).click();
  await result.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await result.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(result).toHaveURL(link);
  await result.getByTestId('invitation-accept').click();
  await expect(result.getByTestId('invitation-joined')).toHaveText('You joined Acme Corp.');
  await noSeriousViolations(result, '/confirmation/invitation (joined)');

  // Opened again: used.
  await result.goto(link);
  await expect(result.getByTestId('invitation-failed')).toHaveText('This invitation has already been accepted');
  await invitee.close();
  await page.reload();
  await expect(page.getByTestId('organization-member').filter({ hasText: MEMBER })).toContainText('Member');
});

test('a member sees the list and can leave, but no admin action', async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, { email: MEMBER, password: PASSWORD });
  await page.goto(`${portal.platformUrl}/organization`);
  await expect(page.getByRole('heading', { name: 'Acme Corp' })).toBeVisible();
  await expect(page.getByTestId('organization-member')).toHaveCount(2);
  await expect(page.getByTestId('invite-form')).toHaveCount(0);
  await expect(page.getByTestId('organization-invitations')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(page.getByTestId('organization-members').getByRole('combobox')).toHaveCount(0);
  await expect(page.getByTestId('leave-organization')).toBeVisible();
  await noSeriousViolations(page, '/organization (member)');
  // The server refuses regardless of the page.
  const refused = await page.request.delete(`${portal.platformUrl}/v3/sso/me/organization/members/${encodeURIComponent(OWNER)}`);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('organizations.forbidden');
});

test('a withdrawn invitation says so, on the sign-up page and the result screen', async ({ page, browser }) => {
  await signIn(page.context(), portal.platformUrl, { email: OWNER, password: PASSWORD });
  await page.goto(`${portal.platformUrl}/organization`);
  const withdrawn = uniqueEmail('org-withdrawn');
  const link = await inviteFromPage(page, withdrawn, 'Admin');
  await page.getByRole('button', { name: `Revoke the invitation to ${withdrawn}` }).click();
  await expect(page.getByTestId('organization-invitation').filter({ hasText: withdrawn })).toHaveCount(0);

  const visitor = await browser.newContext();
  const view = await visitor.newPage();
  await view.goto(link);
  await expect(view.getByTestId('invitation-failed')).toHaveText('This invitation was withdrawn by the organization');
  await view.goto(link.replace('/register/', '/confirmation/invitation/'));
  await expect(view.getByTestId('invitation-failed')).toHaveText('This invitation was withdrawn by the organization');
  await noSeriousViolations(view, '/confirmation/invitation (withdrawn)');
  await visitor.close();
});

test('screenshots of the organization page and the result screen, both brands and languages', async ({ browser }) => {
  test.slow();
  for (const brand of ['platform', 'locker'] as const) {
    const origin = brand === 'locker' ? portal.lockerUrl : portal.platformUrl;
    for (const language of ['en', 'vi'] as const) {
      const context = await browser.newContext({ locale: language === 'vi' ? 'vi-VN' : 'en-US' });
      await context.addCookies([{ name: 'lang', value: language, url: origin }]);
      const page = await context.newPage();
      await page.goto(`${origin}/login/explore`);
      expect(await postFromPage(page, '/v3/sso/auth', { email: OWNER, password: PASSWORD })).toBe(200);
      await page.goto(`${origin}/organization`);
      await expect(page.getByTestId('organization-members')).toBeVisible();
      const invitee = uniqueEmail(`org-shot-${brand}-${language}`);
      expect(await postFromPage(page, '/v3/sso/me/organization/invitations', { email: invitee, role: 'member' })).toBe(201);
      await page.reload();
      await expect(page.getByTestId('organization-invitation').filter({ hasText: invitee })).toBeVisible();
      await page.mouse.move(1270, 790);
      await snap(page, `organizations-page-${brand}-${language}`);
      const mail = await portal.waitForMail(invitee);
      const token = new URL(linkIn(mail, '/register/')).pathname.split('/').pop()!;
      const visitor = await browser.newContext({ locale: language === 'vi' ? 'vi-VN' : 'en-US' });
      await visitor.addCookies([{ name: 'lang', value: language, url: origin }]);
      const view = await visitor.newPage();
      await view.goto(`${origin}/confirmation/invitation/${token}`);
      await expect(view.getByTestId('invitation-summary')).toBeVisible();
      await snap(view, `organizations-result-${brand}-${language}`);
      await view.goto(`${origin}/register/${token}`);
      await expect(view.locator('input[type="email"]')).toHaveValue(invitee);
      await snap(view, `organizations-register-${brand}-${language}`);
      await visitor.close();
      await context.close();
    }
  }
});

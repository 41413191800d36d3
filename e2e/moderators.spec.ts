import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { seriousViolations } from './support/axe';
import { signIn } from './support/auth';
import { snap } from './support/helpers';
import { createActivatedAccount, linkIn, poll, uniqueEmail, type Portal } from './support/mail';
import { ROOT, startPortalServer, type PortalServer } from './support/server';

/**
 * Website moderators in Chromium: a product's back end (the client-credentials grant
 * with the `moderators` scope, through the real token endpoint) invites by email; the invited
 * person with an account opens the mailed link signed out, signs in, comes back to the
 * "moderator invitation activation" result screen and accepts; opened again, the link says it
 * was used; another account is told it is not theirs. A person without an account signs up
 * from /register/:token and is a moderator once activated. The product then posts a
 * notification for the website: accepted moderators get it, a revoked one no more.
 * Screenshots of the result screen in both brands and languages.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const SECRET = 'vulnscan-secret-of-the-e2e-0123456789';
const stamp = Date.now().toString(36);

let server: PortalServer;
let peer: SmtpPeer;
let portal: Portal;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  peer = await startSmtpPeer();
  server = await startPortalServer({
    env: { SMTP_URL: peer.url, OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'moderator-clients.json'), OAUTH_CLIENT_SECRETS: `test-vulnscan=${SECRET}` },
  });
  portal = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
});

test.afterAll(async () => {
  await server?.close();
  await peer?.close();
});

/** The product's back end: a client-credentials token with the moderators scope, and its calls. */
async function product(request: APIRequestContext) {
  const response = await request.post(`${server.platformUrl}/oidc/token`, {
    headers: { authorization: `Basic ${Buffer.from(`test-vulnscan:${SECRET}`).toString('base64')}` },
    form: { grant_type: 'client_credentials', scope: 'moderators' },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { access_token: string; scope: string };
  expect(body.scope).toBe('moderators');
  const headers = { authorization: `Bearer ${body.access_token}` };
  const base = `${server.platformUrl}/v3/products/websites`;
  return {
    invite: (website: string, email: string) => request.post(`${base}/${website}/moderators`, { headers, data: { email, website_name: `${website}.example.com` } }),
    list: async (website: string) => ((await (await request.get(`${base}/${website}/moderators`, { headers })).json()) as { items: Array<{ id: string; email: string; status: string }> }).items,
    revoke: (website: string, id: string) => request.delete(`${base}/${website}/moderators/${id}`, { headers }),
    notify: async (website: string, title: string) => ((await (await request.post(`${base}/${website}/notifications`, { headers, data: { title } })).json()) as { delivered: number }).delivered,
  };
}

async function noSeriousViolations(page: Page, screen: string): Promise<void> {
  await page.mouse.move(1270, 790);
  await page.waitForTimeout(300);
  expect((await seriousViolations(page)).map((violation) => `${screen}: ${violation}`)).toEqual([]);
}

const inviteMail = (email: string) => portal.waitForMail(email, { subject: /invited to moderate/ });

test('a person with an account signs in from the link and accepts; the link then says it was used', async ({ browser, request }) => {
  test.slow();
  const api = await product(request);
  const website = `shop-${stamp}`;
  const moderator = { email: uniqueEmail('moderator'), password: PASSWORD, fullName: 'Mona Moderator' };
  const other = { email: uniqueEmail('not-invited'), password: PASSWORD, fullName: 'Oscar Other' };
  const invitee = await browser.newContext();
  await createActivatedAccount(invitee.request, portal, moderator);
  await createActivatedAccount(request, portal, other);

  const invited = await api.invite(website, moderator.email);
  expect(invited.status()).toBe(201);
  expect((await api.invite(website, moderator.email)).status()).toBe(200);
  const link = linkIn(await inviteMail(moderator.email), '/confirmation/moderator/');
  expect(new URL(link).pathname).toMatch(/^\/confirmation\/moderator\/mod-[\w-]{20,}$/);

  // Another account is told the invitation is not theirs.
  const stranger = await browser.newContext();
  await signIn(stranger, portal.platformUrl, other);
  const wrong = await stranger.newPage();
  await wrong.goto(link);
  await expect(wrong.getByTestId('invitation-failed')).toHaveText('This invitation was sent to another email address. Sign in with the invited email to accept it');
  await noSeriousViolations(wrong, '/confirmation/moderator (another account)');
  await stranger.close();

  const page = await invitee.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Moderator invitation' })).toBeVisible();
  await expect(page.getByTestId('invitation-summary')).toContainText(`invited ${moderator.email} to moderate ${website}.example.com`);
  await noSeriousViolations(page, '/confirmation/moderator (signed out)');
  await page.getByTestId('invitation-sign-in').click();
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel('Email or username').fill(moderator.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(link);
  await page.getByTestId('invitation-accept').click();
  await expect(page.getByTestId('moderator-accepted')).toContainText(`You are now a moderator of ${website}.example.com.`);
  await noSeriousViolations(page, '/confirmation/moderator (accepted)');
  await snap(page, 'moderator-accepted-platform-en');

  // A used link.
  await page.goto(link);
  await expect(page.getByTestId('invitation-failed')).toHaveText('This invitation has already been accepted');
  await noSeriousViolations(page, '/confirmation/moderator (used)');
  await snap(page, 'moderator-used-platform-en');

  // The product sees who accepted, and its notifications reach them until it revokes them.
  const [row] = await api.list(website);
  expect(row).toMatchObject({ email: moderator.email, status: 'accepted' });
  expect(await api.notify(website, `Security analysis of ${website} finished`)).toBe(1);
  const notifications = await (await invitee.request.get(`${portal.platformUrl}/v3/notifications`)).json();
  expect(notifications.items.map((item: { title: string }) => item.title)).toContain(`Security analysis of ${website} finished`);
  expect((await api.revoke(website, row!.id)).status()).toBe(204);
  expect(await api.notify(website, 'After the revocation')).toBe(0);
  await invitee.close();
});

test('a person without an account signs up from the link and is a moderator once activated', async ({ browser, request }) => {
  test.slow();
  const api = await product(request);
  const website = `blog-${stamp}`;
  const newcomer = uniqueEmail('mod-newcomer');
  expect((await api.invite(website, newcomer)).status()).toBe(201);
  const link = linkIn(await inviteMail(newcomer), '/register/');
  expect(new URL(link).pathname).toMatch(/^\/register\/mod-[\w-]{20,}$/);

  const visitor = await browser.newContext();
  const signup = await visitor.newPage();
  await signup.goto(link);
  await expect(signup.getByRole('heading', { name: `Moderate ${website}.example.com` })).toBeVisible();
  await expect(signup.getByLabel('Email', { exact: true })).toHaveValue(newcomer);
  await expect(signup.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
  await noSeriousViolations(signup, '/register/:token (moderator)');
  await signup.getByLabel('Full name').fill('Nina Newcomer');
  await signup.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await signup.getByRole('checkbox', { name: /I agree to the/ }).check();
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(signup).toHaveURL(/\/register\/verifying-email$/, { timeout: 20_000 });
  expect((await api.list(website))[0]).toMatchObject({ email: newcomer, status: 'pending' });
  const activation = await portal.waitForMail(newcomer, { subject: /activate/i });
  await signup.goto(linkIn(activation, '/confirmation/'));
  await expect(signup.getByRole('heading', { name: 'Your account is activated' })).toBeVisible();
  expect((await api.list(website))[0]).toMatchObject({ email: newcomer, status: 'accepted' });
  // The sign-up link is spent.
  await signup.goto(link);
  await expect(signup.getByTestId('invitation-failed')).toHaveText('This invitation has already been accepted');
  await visitor.close();
});

test('the result screen in both brands and languages', async ({ browser, request }) => {
  test.slow();
  const api = await product(request);
  const website = `brand-${stamp}`;
  const person = { email: uniqueEmail('mod-shots'), password: PASSWORD, fullName: 'Sam Shots' };
  await createActivatedAccount(request, portal, person);
  expect((await api.invite(website, person.email)).status()).toBe(201);
  const token = new URL(linkIn(await inviteMail(person.email), '/confirmation/moderator/')).pathname.split('/').pop()!;
  for (const [origin, brand] of [
    [portal.platformUrl, 'platform'],
    [portal.lockerUrl, 'locker'],
  ] as const) {
    for (const language of ['en', 'vi'] as const) {
      const visitor = await browser.newContext();
      await visitor.addCookies([{ name: 'lang', value: language, url: origin }]);
      const page = await visitor.newPage();
      await page.goto(`${origin}/confirmation/moderator/${token}`);
      await expect(page.getByRole('heading', { name: language === 'en' ? 'Moderator invitation' : 'Lời mời kiểm duyệt' })).toBeVisible();
      await expect(page.getByTestId('invitation-summary')).toContainText(`${website}.example.com`);
      expect(await page.locator('html').getAttribute('data-brand')).toBe(brand);
      await noSeriousViolations(page, `/confirmation/moderator (${brand}, ${language})`);
      await snap(page, `moderator-invitation-${brand}-${language}`);
      await visitor.close();
    }
  }
});

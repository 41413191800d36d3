import path from 'node:path';
import { test as base, expect, type APIRequestContext, type BrowserContext } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { seriousViolations } from './support/axe';
import { outlastProofWindow, snap } from './support/helpers';
import { createActivatedAccount, poll, uniqueEmail, type Portal } from './support/mail';
import { ROOT, startPortalServer, type PortalServer } from './support/server';

/**
 * Researcher payouts end to end: the bug-bounty platform's back end gets a token by
 * client credentials and posts rewards through the real API (other callers refused); the
 * researcher sees them waiting on /wallet/payout, chooses the payout wallet (the password
 * dialog: the sign-in is older than this server's 15 s window); the payout job (every 2 s here,
 * its date set to the next 10th by PAYOUT_TEST_DATE, a setting refused in production) pays
 * them: the balance, the statement line in the transactions and the mail show it. The public
 * profile shows the display name and the accepted programs count to a signed-out visitor.
 * The job's rules (the 10th only, parallel runners, a crash, never twice) are proved in
 * packages/server/src/modules/wallet/payouts.test.ts.
 */
const PASSWORD = 'Orchid-Lantern-Harbor-58';
/** This server's recent-proof window (REAUTH_MAX_AGE_SECONDS). */
const PROOF_SECONDS = 15;
const BUGBOUNTY_SECRET = 'bugbounty-secret-of-the-e2e-0123456789';
const OTHER_SECRET = 'pwdmanager-secret-of-the-e2e-0123456789';

/** The next 10th (UTC) from now: rewards posted now are before its cutoff. */
const now = new Date();
const payday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + (now.getUTCDate() >= 10 ? 1 : 0), 10));
const paydayText = payday.toISOString().slice(0, 10);
const monthText = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(payday);

interface PayoutPortal {
  server: PortalServer;
  portal: Portal;
}

/** This spec's own server (the payout clients, the job every 2 s on the next 10th, a 15 s proof window) and SMTP peer, per worker. */
const test = base.extend<{ server: PortalServer; portal: Portal }, { payoutPortal: PayoutPortal }>({
  payoutPortal: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const peer: SmtpPeer = await startSmtpPeer();
      let server: PortalServer | undefined;
      try {
        server = await startPortalServer({
          env: {
            SMTP_URL: peer.url,
            OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'payout-clients.json'),
            OAUTH_CLIENT_SECRETS: `test-bugbounty=${BUGBOUNTY_SECRET},test-pwdmanager=${OTHER_SECRET}`,
            PAYOUT_JOB_INTERVAL_SECONDS: '2',
            PAYOUT_TEST_DATE: paydayText,
            REAUTH_MAX_AGE_SECONDS: String(PROOF_SECONDS),
          },
        });
        const portal: Portal = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
        await use({ server, portal });
      } finally {
        await server?.close();
        await peer.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  server: async ({ payoutPortal }, use) => use(payoutPortal.server),
  portal: async ({ payoutPortal }, use) => use(payoutPortal.portal),
  baseURL: async ({ payoutPortal }, use) => use(payoutPortal.server.platformUrl),
});
test.describe.configure({ mode: 'serial' });

/** A product back end's token by the client-credentials grant. */
async function clientToken(request: APIRequestContext, origin: string, clientId: string, secret: string): Promise<string> {
  const response = await request.post(`${origin}/oidc/token`, {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    form: { grant_type: 'client_credentials' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function signIn(context: BrowserContext, origin: string, email: string, language: 'en' | 'vi' = 'en'): Promise<string> {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
  return ((await response.json()) as { token: string }).token;
}

const researcher = { email: uniqueEmail('payout-ada'), fullName: 'Ada Lovelace', username: `ada${Date.now().toString(36)}` };

test('a product posts rewards, the researcher chooses the payout wallet with the password, the job pays on the 10th', async ({ context, page, request, server, portal }) => {
  test.setTimeout(150_000);
  await createActivatedAccount(context.request, portal, { email: researcher.email, password: PASSWORD, fullName: researcher.fullName });
  const session = await signIn(context, server.platformUrl, researcher.email);
  const signedInAt = Date.now();
  const named = await context.request.put(`${server.platformUrl}/v3/sso/me`, { data: { full_name: researcher.fullName, username: researcher.username, language: 'en' } });
  expect(named.status(), await named.text()).toBe(200);

  // The product's back end: its own token; the rewards API refuses everyone else.
  const token = await clientToken(request, server.platformUrl, 'test-bugbounty', BUGBOUNTY_SECRET);
  const rewards = `${server.platformUrl}/v3/bugbounty_platform/rewards`;
  const reward = (id: string, program: string, currency: string, amount: string) => ({ reward_id: id, researcher: researcher.email, program_alias: program, currency, amount_minor: amount, status: 'approved' });
  const first = reward(`e2e-${Date.now()}-1`, 'acme-web', 'USD', '20000');
  expect((await request.post(rewards, { data: first })).status()).toBe(401);
  expect((await request.post(rewards, { data: first, headers: { authorization: `Bearer ${session}` } })).status()).toBe(401);
  const other = await clientToken(request, server.platformUrl, 'test-pwdmanager', OTHER_SECRET);
  expect((await request.post(rewards, { data: first, headers: { authorization: `Bearer ${other}` } })).status()).toBe(403);
  const asProduct = { authorization: `Bearer ${token}` };
  const posted = await request.post(rewards, { data: first, headers: asProduct });
  expect(posted.status(), await posted.text()).toBe(201);
  expect((await request.post(rewards, { data: first, headers: asProduct })).status()).toBe(200);
  expect((await request.post(rewards, { data: { ...first, amount_minor: '1' }, headers: asProduct })).status()).toBe(409);
  expect((await request.post(rewards, { data: reward(`e2e-${Date.now()}-2`, 'acme-api', 'USD', '5050'), headers: asProduct })).status()).toBe(201);
  expect((await request.post(rewards, { data: reward(`e2e-${Date.now()}-3`, 'acme-web', 'VND', '500000'), headers: asProduct })).status()).toBe(201);
  const canceled = reward(`e2e-${Date.now()}-4`, 'beta-app', 'USD', '999');
  expect((await request.post(rewards, { data: canceled, headers: asProduct })).status()).toBe(201);
  expect((await request.post(`${rewards}/${canceled.reward_id}/cancel`, { headers: asProduct })).status()).toBe(200);

  // The researcher's payout page: three rewards waiting, no method chosen (so the job pays nothing yet).
  await page.goto('/wallet');
  await page.getByTestId('wallet-payout-link').click();
  await expect(page).toHaveURL(/\/wallet\/payout$/);
  await expect(page.getByTestId('payout-method-none')).toBeVisible();
  await expect(page.getByTestId('payout-pending').getByRole('row')).toHaveCount(4);
  await expect(page.getByTestId('payout-pending')).toContainText('$200');
  await expect(page.getByTestId('payout-pending')).not.toContainText('beta-app');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'payouts-waiting-platform-en');

  // The sign-in grows older than the window: choosing the wallet asks for the password.
  await outlastProofWindow(page, signedInAt, PROOF_SECONDS);
  await page.getByRole('radio', { name: 'USD wallet' }).check();
  await page.getByTestId('payout-method-save').click();
  const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(reauth).toBeVisible();
  await reauth.getByLabel('Password').fill('not-the-password');
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(reauth.getByText('Password not valid')).toBeVisible();
  await reauth.getByLabel('Password').fill(PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Payout method saved')).toBeVisible();
  await expect(page.getByTestId('payout-method-none')).toBeHidden();

  // The job (its date the next 10th) pays: the statement replaces the waiting rewards.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('payout-pending-empty')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('payout-statement-USD')).toContainText(`Payout for ${monthText}`);
  await expect(page.getByTestId('payout-statement-USD')).toContainText('$250.50');
  await expect(page.getByTestId('payout-statement-USD')).toContainText('Rewards (2): acme-api, acme-web');
  // No conversion: the VND reward went to the VND wallet.
  await expect(page.getByTestId('payout-statement-VND')).toContainText('₫500,000');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'payouts-paid-platform-en');

  await page.goto('/wallet');
  await expect(page.getByTestId('balance-USD')).toContainText('$250.50');
  await page.goto('/wallet/vnd');
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫500,000');
  await expect(page.getByTestId('transaction-row').first()).toContainText(`Payout for ${monthText}: 1 reward (acme-web)`);
  const mail = await portal.waitForMail(researcher.email, { subject: /Your rewards were paid/, timeoutMs: 15_000 });
  expect(mail.text).toContain('wallet');
  // The product sees its rewards paid; a paid one cannot be canceled.
  expect((await (await request.get(`${rewards}/${first.reward_id}`, { headers: asProduct })).json()).status).toBe('paid');
  expect((await request.post(`${rewards}/${first.reward_id}/cancel`, { headers: asProduct })).status()).toBe(409);
});

test('the public researcher profile: off by default, then the display name and accepted programs to anyone', async ({ browser, context, page, server }) => {
  await signIn(context, server.platformUrl, researcher.email);
  const visitor = await browser.newContext({ baseURL: server.platformUrl });
  const outside = await visitor.newPage();
  await outside.goto(`/researchers/${researcher.username}`);
  await expect(outside.getByTestId('researcher-not-found')).toBeVisible();

  await page.goto('/wallet/payout');
  // The switch moves once the server has saved it.
  await page.getByTestId('payout-profile-switch').click();
  await expect(page.getByText('Public profile updated')).toBeVisible();
  await expect(page.getByTestId('payout-profile-switch')).toBeChecked();
  await page.getByTestId('payout-profile-link').click();
  await expect(page.getByTestId('researcher-profile')).toBeVisible();

  await outside.reload();
  await expect(outside.getByTestId('researcher-profile')).toContainText(researcher.fullName);
  await expect(outside.getByTestId('researcher-programs')).toHaveText('2');
  await expect(outside.locator('body')).not.toContainText(researcher.email);
  expect(await seriousViolations(outside)).toEqual([]);
  await snap(outside, 'researcher-profile-platform-en');
  await outside.goto('/researchers/nobody0such0person');
  await expect(outside.getByTestId('researcher-not-found')).toBeVisible();
  await visitor.close();
});

test('screenshots of the new screens in both brands and languages', async ({ browser, server }) => {
  // Four contexts, eight pages.
  test.setTimeout(120_000);
  for (const [brand, origin] of [
    ['platform', server.platformUrl],
    ['locker', server.lockerUrl],
  ] as const) {
    for (const language of ['en', 'vi'] as const) {
      const context = await browser.newContext({ baseURL: origin });
      await context.addCookies([{ name: 'lang', value: language, url: origin }]);
      const page = await context.newPage();
      // Signed in from the page (the test's own requests cannot resolve locker.localhost; Chromium does).
      await page.goto('/login/explore');
      const status = await page.evaluate(
        async ({ email, password }) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
        { email: researcher.email, password: PASSWORD },
      );
      expect(status).toBe(200);
      await page.goto('/wallet/payout');
      await expect(page.getByTestId('payout-statement-USD')).toBeVisible();
      await snap(page, `payouts-${brand}-${language}`);
      const visitor = await browser.newContext({ baseURL: origin });
      await visitor.addCookies([{ name: 'lang', value: language, url: origin }]);
      const outside = await visitor.newPage();
      await outside.goto(`/researchers/${researcher.username}`);
      await expect(outside.getByTestId('researcher-programs')).toHaveText('2');
      await snap(outside, `researcher-profile-${brand}-${language}`);
      await visitor.close();
      await context.close();
    }
  }
});

import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { seriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { createActivatedAccount, expect, poll, test, uniqueEmail, type Portal } from './support/mail';
import { E2E_BANK, startPortalServer, type PortalServer } from './support/server';

/**
 * Transfers to a partner exchange wallet, in Chromium against the real server and a
 * partner exchange started here that takes signed transfer requests (`POST /transfers`) and
 * answers with signed callbacks: on /wallet/vnd the transfer form offers "Partner exchange
 * wallet", a transfer is pending (debited at once) until the partner's callback completes it,
 * and a rejected one comes back to the balance. Both languages, both brands, axe.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const SECRET = 'e2e-partner-exchange-secret-0123456789abcdef';

const sign = (raw: string, secret: string) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
};

let partnerServer: Server;
const received: Record<string, unknown>[] = [];
let server: PortalServer;
let peer: SmtpPeer;
let own: Portal;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  partnerServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = String(request.headers['x-portal-signature'] ?? '');
      const t = /t=(\d+)/.exec(header)?.[1] ?? '';
      const valid = header.includes(`v1=${createHmac('sha256', SECRET).update(`${t}.${raw}`).digest('hex')}`);
      if (!valid) return response.writeHead(401).end('{}');
      received.push(JSON.parse(raw) as Record<string, unknown>);
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"reference":"PX-1"}');
    });
  });
  await new Promise<void>((resolve) => partnerServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(partnerServer.address() as AddressInfo).port}`;
  peer = await startSmtpPeer();
  server = await startPortalServer({ env: { SMTP_URL: peer.url, PARTNER_EXCHANGE_URL: url, PARTNER_EXCHANGE_SECRET: SECRET } });
  own = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
});

test.afterAll(async () => {
  await server?.close();
  await peer?.close();
  await new Promise((resolve) => partnerServer?.close(resolve));
});

async function signIn(context: BrowserContext, origin: string, email: string, language: 'en' | 'vi') {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
}

/** ₫ into the signed-in person's wallet the way money comes in: a deposit order paid by a signed bank notification. */
async function deposit(request: APIRequestContext, origin: string, amount: number) {
  const order = (await (await request.post(`${origin}/v3/sso/me/wallet/VND/deposits`, { data: { amount: String(amount) } })).json()) as { reference: string };
  const raw = JSON.stringify({ transaction_id: `FT${Date.now()}`, amount, description: `CT ${order.reference}`, account_number: E2E_BANK.accountNumber, occurred_at: new Date().toISOString() });
  const paid = await request.post(`${origin}/v3/wallet/bank-notifications`, { data: raw, headers: { 'content-type': 'application/json', 'x-bank-signature': sign(raw, E2E_BANK.webhookSecret) } });
  expect(await paid.json()).toEqual({ matched: true });
}

/** The partner's signed callback on the newest transfer it received. */
async function partnerConfirms(request: APIRequestContext, origin: string, status: 'completed' | 'rejected') {
  const raw = JSON.stringify({ transfer_id: received.at(-1)!.transfer_id, status, ...(status === 'rejected' ? { reason: 'Account closed' } : {}) });
  const answer = await request.post(`${origin}/v3/wallet/partner-notifications`, { data: raw, headers: { 'content-type': 'application/json', 'x-partner-signature': sign(raw, SECRET) } });
  expect(await answer.json()).toEqual({ applied: true, status });
}

test('a VND transfer to a partner exchange wallet: pending, completed by the partner; a rejected one returned', async ({ context, page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('partner-ada');
  await createActivatedAccount(context.request, own, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  await signIn(context, server.platformUrl, email, 'en');
  await deposit(context.request, server.platformUrl, 500_000);

  await page.goto(`${server.platformUrl}/wallet/vnd`);
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫500,000');
  const form = page.getByTestId('transfer-form');
  await form.getByText('Partner exchange wallet').click();
  await expect(form.getByText('Their email, phone number or username at the partner exchange')).toBeVisible();
  await form.getByLabel('Recipient').fill('ada@exchange.example');
  await form.getByLabel('Amount').fill('200000');
  await form.getByTestId('transfer-submit').click();
  await expect(page.getByText('Transfer sent to the partner exchange: pending until it confirms')).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫300,000');
  const newest = page.getByTestId('transaction-row').first();
  await expect(newest).toContainText('−₫200,000');
  await expect(newest).toContainText('ada@exchange.example');
  await expect(newest).toContainText('Pending');
  expect(received.at(-1)).toMatchObject({ recipient: 'ada@exchange.example', currency: 'VND', amount_minor: '200000' });
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'wallet-partner-pending-en');

  await partnerConfirms(context.request, server.platformUrl, 'completed');
  await page.reload();
  await expect(page.getByTestId('transaction-row').first()).toContainText('Completed');
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫300,000');

  // A recipient the partner cannot take: rejected by its callback, the amount back.
  await form.getByText('Partner exchange wallet').click();
  await form.getByLabel('Recipient').fill('+84 912 345 678');
  await form.getByLabel('Amount').fill('100000');
  await form.getByTestId('transfer-submit').click();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫200,000');
  await partnerConfirms(context.request, server.platformUrl, 'rejected');
  await page.reload();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫300,000');
  const rows = page.getByTestId('transaction-row');
  await expect(rows.first()).toContainText('Returned: the partner exchange rejected the transfer to +84 912 345 678 (Account closed)');
  await expect(rows.nth(1)).toContainText('Rejected');
  await snap(page, 'wallet-partner-rejected-en');

  // A recipient that is no email, phone or username: refused by the server, in the form.
  await form.getByText('Partner exchange wallet').click();
  await form.getByLabel('Recipient').fill('not a name');
  await form.getByLabel('Amount').fill('1000');
  await form.getByTestId('transfer-submit').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Enter the recipient’s email, phone number or username at the partner exchange' })).toHaveCount(1);

  // Vietnamese.
  await context.addCookies([{ name: 'lang', value: 'vi', url: server.platformUrl }]);
  await page.reload();
  await form.getByText('Ví sàn giao dịch đối tác').click();
  await expect(form.getByText('Email, số điện thoại hoặc tên người dùng của họ trên sàn giao dịch đối tác')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'wallet-partner-vi');

  // WHC: the same choice; without two-step the required-two-factor dialog comes first.
  await context.addCookies([{ name: 'lang', value: 'en', url: server.platformUrl }]);
  await page.goto(`${server.platformUrl}/wallet/whc`);
  await form.getByText('Partner exchange wallet').click();
  await form.getByLabel('Recipient').fill('ada');
  await form.getByLabel('Amount').fill('1');
  await form.getByTestId('transfer-submit').click();
  await expect(page.getByTestId('required-two-factor')).toBeVisible();
  await page.getByTestId('required-two-factor').getByRole('button', { name: 'Cancel' }).click();
  await snap(page, 'wallet-partner-whc-en');

  // The password manager's brand (its host resolves in Chromium only: signed in from a page of it).
  await page.goto(`${server.lockerUrl}/login`);
  const status = await page.evaluate(
    async ([user, password]) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user, password }) })).status,
    [email, PASSWORD],
  );
  expect(status).toBe(200);
  for (const language of ['en', 'vi'] as const) {
    await context.addCookies([{ name: 'lang', value: language, url: server.lockerUrl }]);
    await page.goto(`${server.lockerUrl}/wallet/vnd`);
    await form.getByText(language === 'en' ? 'Partner exchange wallet' : 'Ví sàn giao dịch đối tác').click();
    await expect(page.getByTestId('transaction-row').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, `wallet-partner-locker-${language}`);
  }
});

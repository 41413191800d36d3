import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { generate } from 'otplib';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { seriousViolations } from './support/axe';
import { outlastProofWindow, snap } from './support/helpers';
import { createActivatedAccount, expect, poll, test, uniqueEmail, type Portal } from './support/mail';
import { E2E_BANK, startPortalServer, type PortalServer } from './support/server';

/**
 * Money moves only on a recent proof of identity, in Chromium against a server whose proof lasts
 * 5 s (REAUTH_MAX_AGE_SECONDS) and a partner exchange started here: a VND transfer to another
 * account on an older sign-in opens the re-authentication dialog; cancelled, nothing moves;
 * with the password, the same transfer goes through. A transfer to a partner wallet likewise.
 * The server's side (every way money leaves, refused before any rule) is proved in
 * packages/server/src/modules/wallet/money-reauth.test.ts.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Orchid-Lantern-Harbor-58';
const SECRET = 'e2e-partner-exchange-secret-0123456789abcdef';
const PROOF_SECONDS = 5;

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
  // The partner takes every signed transfer (pending until a callback this spec does not need).
  partnerServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (request.method !== 'POST') return response.writeHead(404).end('{}');
      received.push(JSON.parse(raw) as Record<string, unknown>);
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"reference":"PX-1"}');
    });
  });
  await new Promise<void>((resolve) => partnerServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(partnerServer.address() as AddressInfo).port}`;
  peer = await startSmtpPeer();
  server = await startPortalServer({ env: { SMTP_URL: peer.url, PARTNER_EXCHANGE_URL: url, PARTNER_EXCHANGE_SECRET: SECRET, REAUTH_MAX_AGE_SECONDS: String(PROOF_SECONDS) } });
  own = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
});

test.afterAll(async () => {
  await server?.close();
  await peer?.close();
  await new Promise((resolve) => partnerServer?.close(resolve));
});

/** Signs in through the API; when the sign-in was answered (Date.now()). */
async function signIn(context: BrowserContext, origin: string, email: string): Promise<number> {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email, password: PASSWORD } });
  const answeredAt = Date.now();
  expect(response.status(), await response.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: 'en', url: origin }]);
  return answeredAt;
}

/** ₫ into the signed-in person's wallet: a deposit order paid by a signed bank notification. */
async function deposit(request: APIRequestContext, origin: string, amount: number) {
  const order = (await (await request.post(`${origin}/v3/sso/me/wallet/VND/deposits`, { data: { amount: String(amount) } })).json()) as { reference: string };
  const raw = JSON.stringify({ transaction_id: `FT${Date.now()}`, amount, description: `CT ${order.reference}`, account_number: E2E_BANK.accountNumber, occurred_at: new Date().toISOString() });
  const paid = await request.post(`${origin}/v3/wallet/bank-notifications`, { data: raw, headers: { 'content-type': 'application/json', 'x-bank-signature': sign(raw, E2E_BANK.webhookSecret) } });
  expect(await paid.json()).toEqual({ matched: true });
}

test('a transfer on an older sign-in asks for the password, then goes through; cancelled, nothing moves', async ({ context, page }) => {
  test.setTimeout(120_000);
  const ada = uniqueEmail('reauth-ada');
  const bob = uniqueEmail('reauth-bob');
  await createActivatedAccount(context.request, own, { email: bob, password: PASSWORD, fullName: 'Bob Builder' });
  await createActivatedAccount(context.request, own, { email: ada, password: PASSWORD, fullName: 'Ada Lovelace' });
  const signedInAt = await signIn(context, server.platformUrl, ada);
  await deposit(context.request, server.platformUrl, 500_000);

  await page.goto(`${server.platformUrl}/wallet/vnd`);
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫500,000');
  const form = page.getByTestId('transfer-form');
  const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
  const send = async (to: string, amount: string) => {
    await form.getByLabel('Recipient').fill(to);
    await form.getByLabel('Amount').fill(amount);
    await form.getByTestId('transfer-submit').click();
  };

  // The sign-in is older than the proof lasts: the dialog, and cancelling it moves nothing.
  await outlastProofWindow(page, signedInAt, PROOF_SECONDS);
  await send(bob, '100000');
  await expect(reauth).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'wallet-reauth-dialog-en');
  await reauth.getByRole('button', { name: 'Cancel' }).click();
  await expect(reauth).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Confirm it is you to continue' })).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫500,000');
  await expect(page.getByTestId('transaction-row')).toHaveCount(1);

  // With the password the same transfer goes through, once.
  await send(bob, '100000');
  await expect(reauth).toBeVisible();
  await reauth.getByLabel('Password').fill('not-the-password');
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(reauth.getByText('Password not valid')).toBeVisible();
  await reauth.getByLabel('Password').fill(PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(reauth).toBeHidden();
  const provedAt = Date.now();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫400,000');
  await expect(page.getByTestId('transaction-row').first()).toContainText('−₫100,000');
  await expect(page.getByTestId('transaction-row')).toHaveCount(2);

  // A partner transfer after the proof aged: the dialog again, then it is sent to the partner.
  await outlastProofWindow(page, provedAt, PROOF_SECONDS);
  const before = received.length;
  await form.getByText('Partner exchange wallet').click();
  await send('ada@exchange.example', '50000');
  await expect(reauth).toBeVisible();
  expect(received.length).toBe(before);
  await reauth.getByLabel('Password').fill(PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Transfer sent to the partner exchange: pending until it confirms')).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫350,000');
  expect(received.at(-1)).toMatchObject({ recipient: 'ada@exchange.example', currency: 'VND', amount_minor: '50000' });
  expect(received.length).toBe(before + 1);
});

test('a WHC transfer on an older sign-in: the code, then the password, then the transfer meets its own rules', async ({ context, page }) => {
  test.setTimeout(120_000);
  const ada = uniqueEmail('reauth-whc-ada');
  const bob = uniqueEmail('reauth-whc-bob');
  await createActivatedAccount(context.request, own, { email: bob, password: PASSWORD, fullName: 'Bob Builder' });
  await createActivatedAccount(context.request, own, { email: ada, password: PASSWORD, fullName: 'Ada Lovelace' });
  await signIn(context, server.platformUrl, ada);
  // Two-step on while the sign-in is fresh (turning it on is itself a sensitive change).
  const { secret } = (await (await context.request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/setup`)).json()) as { secret: string };
  const now = Math.floor(Date.now() / 1000);
  expect((await context.request.post(`${server.platformUrl}/v3/sso/me/2fa/totp/enable`, { data: { code: await generate({ secret, epoch: now - 30 }) } })).status()).toBe(200);
  const enabledAt = Date.now();

  await page.goto(`${server.platformUrl}/wallet/whc`);
  await outlastProofWindow(page, enabledAt, PROOF_SECONDS);
  const form = page.getByTestId('transfer-form');
  await form.getByLabel('Recipient').fill(bob);
  await form.getByLabel('Amount').fill('1');
  await form.getByTestId('transfer-submit').click();
  const codeDialog = page.getByTestId('two-factor-dialog');
  await codeDialog.getByRole('textbox').first().fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) }));
  const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(reauth).toBeVisible();
  await reauth.getByLabel('Password').fill(PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await expect(reauth).toBeHidden();
  // Proved: the same request is sent again with its code, which was not spent by the refusal; the balance (nothing deposited) is what stops it.
  await expect(codeDialog.getByText('Your balance is too low for this transfer')).toBeVisible();
  await snap(page, 'wallet-reauth-whc-en');
});

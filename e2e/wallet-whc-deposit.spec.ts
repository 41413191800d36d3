import type { BrowserContext } from '@playwright/test';
import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts';
import { testTokenAbi } from '../packages/server/test/erc20';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { chainOf, startTestChain, testClientOf, type TestChain } from '../packages/server/test/test-chain';
import { seriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { createActivatedAccount, expect, poll, test, uniqueEmail, type Portal } from './support/mail';
import { startPortalServer, type PortalServer } from './support/server';

/**
 * WHC deposits on chain, in Chromium against the real server following a real local chain
 * (Hardhat's simulated network, started here by test/test-chain.ts, with a test ERC-20 token):
 * the person's /wallet/whc shows their deposit address with its QR code, the network and the
 * confirmations needed; the test sends tokens to that address, the transfer shows as a pending
 * transaction, and once the blocks are mined it is credited: the balance and the transaction
 * update without a reload.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Orchid-Lantern-Harbor-58';
// Test keys of a throwaway local chain: never used anywhere else.
const FUNDER_KEY = `0x${'3c'.repeat(32)}` as Hex;
const funder = privateKeyToAccount(FUNDER_KEY);
const MASTER = HDKey.fromMasterSeed(Uint8Array.from({ length: 32 }, (_, index) => 200 - index));
const CONFIRMATIONS = 3;
const WHC = 10n ** 18n;

let chain: TestChain;
let rpcUrl: string;
let token: Address;
let peer: SmtpPeer;
let server: PortalServer;
let own: Portal;

const reader = () => createPublicClient({ chain: chainOf(rpcUrl), transport: http(rpcUrl) });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  chain = await startTestChain(FUNDER_KEY, { decimals: 18, blocked: funder.address, supply: 10n ** 6n * WHC });
  ({ rpcUrl, token } = chain);
  peer = await startSmtpPeer();
  server = await startPortalServer({
    env: {
      SMTP_URL: peer.url,
      WHC_CHAIN_RPC_URL: rpcUrl,
      WHC_TOKEN_ADDRESS: token,
      WHC_DEPOSIT_XPUB: MASTER.derive("m/44'/60'/0'/0").publicExtendedKey,
      WHC_TOKEN_DECIMALS: '18',
      WHC_CONFIRMATIONS: String(CONFIRMATIONS),
      WHC_CHAIN_POLL_SECONDS: '1',
    },
  });
  own = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
});

test.afterAll(async () => {
  await server?.close();
  await peer?.close();
  await chain?.close();
});

async function signIn(context: BrowserContext, origin: string, email: string, language: 'en' | 'vi') {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
}

test('says WHC deposits are not available when the server follows no chain', async ({ portal, context, page }) => {
  const email = uniqueEmail('whc-off');
  await createActivatedAccount(context.request, portal, { email, password: PASSWORD, fullName: 'Grace Hopper' });
  await signIn(context, portal.platformUrl, email, 'en');
  await page.goto(`${portal.platformUrl}/wallet/whc`);
  await expect(page.getByTestId('whc-deposit-unavailable')).toHaveText('WHC deposits are not available now');
  await expect(page.getByTestId('whc-deposit-address')).toHaveCount(0);
});

test('a WHC deposit: the address and its QR code, the transfer pending, then credited after its confirmations', async ({ context, page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('whc-deposit');
  await createActivatedAccount(context.request, own, { email, password: PASSWORD, fullName: 'Ada Lovelace' });
  await signIn(context, own.platformUrl, email, 'en');

  await page.goto(`${own.platformUrl}/wallet/whc`);
  await expect(page.getByTestId('wallet-balance')).toHaveText('0 WHC');
  const panel = page.getByTestId('whc-deposit');
  const address = (await panel.getByTestId('whc-deposit-address').textContent())!.trim() as Address;
  // The xpub's first child: the operator's seed spends from it.
  expect(address).toBe(hdKeyToAccount(MASTER, { addressIndex: 0 }).address);
  await expect(panel.getByTestId('whc-deposit-network')).toHaveText('BEP20 (BNB Smart Chain)');
  await expect(panel.getByTestId('whc-deposit-notice')).toContainText(`A deposit is credited after ${CONFIRMATIONS} confirmations.`);
  const qr = panel.getByTestId('whc-deposit-qr');
  await expect(qr).toHaveAttribute('alt', 'QR code of your WHC deposit address');
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
  await expect(panel.getByTestId('whc-deposits-empty')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Copy: Your WHC deposit address' })).toBeVisible();
  expect(await seriousViolations(page, '[data-testid="whc-deposit"]')).toEqual([]);
  await snap(page, 'wallet-whc-deposit-address-en');

  // The same address on every visit.
  await page.reload();
  await expect(panel.getByTestId('whc-deposit-address')).toHaveText(address);

  // Tokens sent to it: seen at once, pending until confirmed.
  const wallet = createWalletClient({ account: funder, chain: chainOf(rpcUrl), transport: http(rpcUrl) });
  const hash = await wallet.writeContract({ address: token, abi: testTokenAbi, functionName: 'transfer', args: [address, 12n * WHC + 5n * 10n ** 17n] });
  await reader().waitForTransactionReceipt({ hash });
  const pendingRow = page.getByTestId('transaction-row').filter({ hasText: 'Pending' });
  await expect(pendingRow).toContainText('+12.5 WHC', { timeout: 20_000 });
  await expect(pendingRow).toContainText(`Pending: 1 of ${CONFIRMATIONS} confirmations`);
  await expect(panel.getByTestId('whc-deposit-status')).toHaveText(`Pending: 1 of ${CONFIRMATIONS} confirmations`);
  await expect(page.getByTestId('wallet-balance')).toHaveText('0 WHC');
  expect(await seriousViolations(page, '[data-testid="whc-deposit"]')).toEqual([]);
  await snap(page, 'wallet-whc-deposit-pending-en');

  // The blocks that confirm it: credited, once.
  await testClientOf(rpcUrl).mine({ blocks: CONFIRMATIONS - 1 });
  await expect(page.getByTestId('wallet-balance')).toHaveText('12.5 WHC', { timeout: 30_000 });
  await expect(panel.getByTestId('whc-deposit-status')).toHaveText('Completed');
  const rows = page.getByTestId('transaction-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('+12.5 WHC');
  await expect(rows.first()).toContainText('Completed');
  await expect(rows.first()).toContainText(`BEP20 deposit ${hash.slice(0, 10)}…${hash.slice(-8)}`);
  await snap(page, 'wallet-whc-deposit-completed-en');

  // The other language and the password manager's brand.
  await context.addCookies([{ name: 'lang', value: 'vi', url: own.platformUrl }]);
  await page.reload();
  await expect(panel.getByTestId('whc-deposit-status')).toHaveText('Hoàn tất');
  await expect(panel.getByTestId('whc-deposit-notice')).toContainText(`sau ${CONFIRMATIONS} xác nhận`);
  expect(await seriousViolations(page, '[data-testid="whc-deposit"]')).toEqual([]);
  await snap(page, 'wallet-whc-deposit-vi');
  // The locker host resolves in Chromium only (*.localhost): signed in from a page of it.
  await page.goto(`${own.lockerUrl}/login`);
  const status = await page.evaluate(
    async ([user, password]) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user, password }) })).status,
    [email, PASSWORD],
  );
  expect(status).toBe(200);
  for (const language of ['en', 'vi'] as const) {
    await context.addCookies([{ name: 'lang', value: language, url: own.lockerUrl }]);
    await page.goto(`${own.lockerUrl}/wallet/whc`);
    await expect(panel.getByTestId('whc-deposit-address')).toHaveText(address);
    await expect(page.getByTestId('wallet-balance')).toHaveText(language === 'en' ? '12.5 WHC' : '12,5 WHC');
    expect(await seriousViolations(page, '[data-testid="whc-deposit"]')).toEqual([]);
    await snap(page, `wallet-whc-deposit-locker-${language}`);
  }
});

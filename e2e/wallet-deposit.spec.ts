import { createHmac } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { toast } from './support/accounts';
import { seriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { createActivatedAccount, expect, test, uniqueEmail } from './support/mail';
import { noSidewaysScroll } from './support/operators';
import { E2E_BANK } from './support/server';

/**
 * A VND deposit order credited by a signed bank notification: the person asks for
 * a deposit on /wallet/vnd and sees the VietQR code, the account, the amount and the
 * reference; the test then plays the bank and posts its notification, signed as the bank
 * signs (`x-bank-signature: t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">`). A forged one
 * changes nothing; the signed one credits the balance and marks the order paid, once.
 */
const PASSWORD = 'Orchid-Lantern-Harbor-58';

function signature(body: string, secret: string, at = Date.now()): string {
  const timestamp = Math.floor(at / 1000);
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

async function bankNotifies(request: APIRequestContext, origin: string, body: object, secret: string = E2E_BANK.webhookSecret) {
  const raw = JSON.stringify(body);
  return request.post(`${origin}/v3/wallet/bank-notifications`, { data: raw, headers: { 'content-type': 'application/json', 'x-bank-signature': signature(raw, secret) } });
}

test('a VND deposit order credited by a signed notification', async ({ portal, context, page, playwright }) => {
  // A long flow (two dialogs, three reloads, the list in two brands, two languages and two widths, each audited).
  test.setTimeout(180_000);
  const ada = uniqueEmail('deposit-ada');
  await createActivatedAccount(context.request, portal, { email: ada, password: PASSWORD, fullName: 'Ada Lovelace' });
  const signIn = await context.request.post(`${portal.platformUrl}/v3/sso/auth`, { data: { email: ada, password: PASSWORD } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  await context.addCookies([{ name: 'lang', value: 'en', url: portal.platformUrl }]);

  await page.goto(`${portal.platformUrl}/wallet/vnd`);
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫0');
  await expect(page.getByTestId('deposits-empty')).toBeVisible();

  // An amount below the minimum: refused once, in the failure toast (as a transfer is); the dialog keeps the amount.
  await page.getByTestId('deposit-open').click();
  const dialog = page.getByRole('dialog', { name: 'Deposit by bank transfer' });
  await dialog.getByLabel('Amount to deposit').fill('5000');
  await dialog.getByTestId('deposit-submit').click();
  await expect(page.getByText('Enter a whole amount from ₫10,000 to ₫499,999,999')).toHaveCount(1);
  await expect(dialog.getByText('Enter a whole amount from ₫10,000 to ₫499,999,999')).toHaveCount(0);
  await expect(dialog.getByLabel('Amount to deposit')).toHaveValue('5000');

  // On a phone (the dialog then starts near the top of the screen), the success toast leaves
  // the dialog's title bar (its title and close button) uncovered. Motion reduced: the toast
  // is measured where it stays, not mid-slide.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.getByLabel('Amount to deposit').fill('250,000');
  await dialog.getByTestId('deposit-submit').click();
  const created = toast(page, 'Deposit order created');
  await expect(created).toBeVisible();
  const order = dialog.getByTestId('deposit-order');
  await expect(order.getByTestId('deposit-qr')).toBeVisible();
  const toastBox = (await created.boundingBox())!;
  const titleBar = (await dialog.locator('header').boundingBox())!;
  const apart = titleBar.y + titleBar.height <= toastBox.y || toastBox.y + toastBox.height <= titleBar.y;
  expect(apart, `the toast ${JSON.stringify(toastBox)} leaves the title bar ${JSON.stringify(titleBar)} uncovered`).toBe(true);
  await snap(page, 'wallet-deposit-order-390-en');
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(order.getByTestId('deposit-qr')).toBeVisible();
  expect(await order.getByTestId('deposit-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  // The image is drawn: a PNG's natural size, not a broken image.
  expect(await order.getByTestId('deposit-qr').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
  await expect(order.getByTestId('deposit-account-number')).toHaveText(E2E_BANK.accountNumber);
  await expect(order.getByTestId('deposit-account-name')).toHaveText(E2E_BANK.accountName);
  await expect(order.getByTestId('deposit-amount')).toHaveText('₫250,000');
  await expect(order.getByTestId('deposit-expires')).toContainText('Pay before');
  const reference = (await order.getByTestId('deposit-reference').textContent())!.trim();
  expect(reference).toMatch(/^PD[0-9A-HJKMNP-TV-Z]{8}$/);
  await snap(page, 'wallet-deposit-order-en');
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const row = page.getByTestId('deposit-row').filter({ hasText: reference });
  await expect(row.getByTestId('deposit-status')).toHaveText('Waiting for transfer');
  // The waiting order's code again, from the list.
  await row.getByRole('button', { name: `Show the code of ${reference}` }).click();
  const again = page.getByRole('dialog', { name: 'Deposit by bank transfer' });
  await expect(again.getByTestId('deposit-reference')).toHaveText(reference);
  await expect(again.getByTestId('deposit-amount')).toHaveText('₫250,000');
  await again.getByRole('button', { name: 'Done' }).click();
  await expect(again).toBeHidden();

  // On a phone the list is cards: nothing scrolls sideways, and the waiting order's button is on
  // screen where it is (measured before anything scrolls it into view; a sideways-scrolling table
  // had it at x≈706-746 of 390).
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page, 'the deposit list at 390 px');
  const showOnPhone = row.getByRole('button', { name: `Show the code of ${reference}` });
  await expect.poll(async () => {
    const box = await showOnPhone.boundingBox();
    return box !== null && box.x >= 0 && box.x + box.width <= 390;
  }, { message: 'the Show code button lies within the 390 px screen' }).toBe(true);
  await snap(page, 'wallet-deposit-list-waiting-390-en');
  expect(await seriousViolations(page)).toEqual([]);
  await showOnPhone.click();
  await expect(again.getByTestId('deposit-reference')).toHaveText(reference);
  await again.getByRole('button', { name: 'Done' }).click();
  await expect(again).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The bank's notification, as a bank writes the transfer's content.
  const notification = {
    transaction_id: `FT${Date.now()}`,
    amount: 250_000,
    description: `MBVCB.8812.${reference}.CT tu 0123456 ADA LOVELACE toi ${E2E_BANK.accountNumber}`,
    account_number: E2E_BANK.accountNumber,
    occurred_at: new Date().toISOString(),
  };
  const bank = await playwright.request.newContext();
  try {
    // Forged (another key): refused, nothing credited.
    const forged = await bankNotifies(bank, portal.platformUrl, notification, 'not-the-bank-key-not-the-bank-key-000');
    expect(forged.status()).toBe(401);
    await page.reload();
    await expect(page.getByTestId('wallet-balance')).toHaveText('₫0');
    await expect(page.getByTestId('deposit-row').filter({ hasText: reference }).getByTestId('deposit-status')).toHaveText('Waiting for transfer');

    // Signed: credited.
    const signed = await bankNotifies(bank, portal.platformUrl, notification);
    expect(signed.status(), await signed.text()).toBe(200);
    expect(await signed.json()).toEqual({ matched: true });
    // Sent again by the bank: acknowledged, not credited twice.
    expect(await (await bankNotifies(bank, portal.platformUrl, notification)).json()).toEqual({ matched: true, duplicate: true });
  } finally {
    await bank.dispose();
  }

  await page.reload();
  await expect(page.getByTestId('wallet-balance')).toHaveText('₫250,000');
  await expect(page.getByTestId('deposit-row').filter({ hasText: reference }).getByTestId('deposit-status')).toHaveText('Paid');
  await expect(page.getByTestId('deposit-row').filter({ hasText: reference }).getByTestId('deposit-show')).toHaveCount(0);
  await expect(page.getByTestId('transaction-row')).toHaveCount(1);
  await expect(page.getByTestId('transaction-row').first()).toContainText(`Bank transfer ${reference}`);
  await snap(page, 'wallet-deposit-paid-en');
  expect(await seriousViolations(page)).toEqual([]);

  // In Vietnamese.
  await context.addCookies([{ name: 'lang', value: 'vi', url: portal.platformUrl }]);
  await page.reload();
  await expect(page.getByTestId('deposit-row').filter({ hasText: reference }).getByTestId('deposit-status')).toHaveText('Đã thanh toán');
  await expect(page.getByTestId('deposit-open')).toHaveText('Nạp tiền');

  // The list with its paid order in both brands and languages, on a desktop and on a phone:
  // nothing scrolls sideways on the phone, no serious accessibility issue.
  for (const [brand, origin] of [['platform', portal.platformUrl], ['locker', portal.lockerUrl]] as const) {
    if (brand === 'locker') {
      // The locker's host resolves in Chromium only: signed in from a page of it.
      await page.goto(`${origin}/login`);
      const status = await page.evaluate(
        async ([email, password]) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
        [ada, PASSWORD],
      );
      expect(status).toBe(200);
    }
    for (const language of ['en', 'vi'] as const) {
      await context.addCookies([{ name: 'lang', value: language, url: origin }]);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.goto(`${origin}/wallet/vnd`);
        await expect(page.getByTestId('deposit-row').filter({ hasText: reference })).toBeVisible();
        await noSidewaysScroll(page, `the deposit list, ${brand} ${language} ${width} px`);
        expect(await seriousViolations(page)).toEqual([]);
        await snap(page, `wallet-deposit-list-${brand}-${width}-${language}`);
      }
    }
  }
});

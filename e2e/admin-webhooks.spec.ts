import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { chooseLanguage, pageErrors } from './support/helpers';
import { expect, uniqueEmail } from './support/mail';
import { CONSOLE_OWNER, ConsolePortal, looksRight } from './support/operators';

/**
 * Webhooks in the operators' console, on a portal of its own: the owner (CONSOLE_OWNER)
 * registers an outside app, sets its endpoint to a receiver on this machine with a reason, and
 * copies the signing secret shown once; a person's change then reaches the receiver signed as
 * Standard Webhooks, and the delivery log says it was delivered. Support reads the same log
 * without a single change (and the admin API refuses support's change). At 1440 and 390 px,
 * in both languages, with no sideways scroll and no serious accessibility issue.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const owner = CONSOLE_OWNER;
const support = { email: uniqueEmail('hooks-support'), password: PASSWORD, fullName: 'Sam Support' };
const person = { email: uniqueEmail('hooks-person'), password: PASSWORD, fullName: 'Phan Person' };

let clientId: string;
/** The receiver: every request's id, headers and body. */
const received: Array<{ id: string; headers: Record<string, string>; body: string }> = [];
/** Requests the receiver answers 503 before it answers 204 again (a receiver that is down). */
let downFor = 0;
let receiver: Server;
let receiverUrl: string;

const consolePortal = new ConsolePortal('webhooks', { WEBHOOK_DELIVERY_INTERVAL_MS: '200' });

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async ({ playwright }) => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(downFor > 0 && downFor-- ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/portal-events`;

  await consolePortal.setUp(playwright, {
    people: [support, person],
    twoStep: [support],
    grants: [[support, 'support']],
    asOwner: async (owner) => {
      const registered = await owner.post(`${consolePortal.url}/v3/admin/apps`, {
        data: { name: 'Notes', redirect_uris: ['https://notes.example.com/callback'], reason: 'Notes signs people in' },
      });
      expect(registered.status(), await registered.text()).toBe(201);
      clientId = ((await registered.json()) as { app: { client_id: string } }).app.client_id;
    },
  });
});

test.afterAll(async () => {
  await consolePortal.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

test("the owner sets an app's endpoint with a reason, copies the secret shown once, and a person's change arrives signed", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await consolePortal.signInAs(context, owner);
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${consolePortal.url}/admin`);
  await page.getByTestId('admin-nav-webhooks').click();
  await expect(page).toHaveURL(/\/admin\/webhooks$/);
  const row = page.getByTestId('webhook-app').filter({ hasText: clientId });
  await expect(row).toBeVisible();
  await row.getByTestId('webhook-manage').click();
  await page.getByTestId('webhook-url').fill(receiverUrl);
  await looksRight(page, 'admin-webhooks-1440-en');
  await page.getByTestId('webhook-save').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('action-confirm')).toBeDisabled();
  await dialog.getByTestId('action-reason').fill('Notes erases people who leave');
  await dialog.getByTestId('action-confirm').click();
  await expect(dialog).toBeHidden();
  const secret = (await page.getByTestId('webhook-secret').locator('pre').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);

  // The person signs in to Notes (Allow on the consent page): an app hears only of the people
  // who allowed it. Nothing listens at Notes' callback: the redirect to it is what counts.
  const personContext = await browser.newContext();
  await consolePortal.signInAs(personContext, person);
  const personPage = await personContext.newPage();
  const authorize = new URL(`${consolePortal.url}/o/authorize`);
  const verifier = 'webhooks-e2e-verifier-0123456789abcdefghijklmnopqrstuvwxyz';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  for (const [name, value] of Object.entries({ client_id: clientId, redirect_uri: 'https://notes.example.com/callback', response_type: 'code', scope: 'openid profile email', state: 'webhooks-e2e', code_challenge: challenge, code_challenge_method: 'S256' })) {
    authorize.searchParams.set(name, value);
  }
  await personPage.goto(authorize.href);
  const redirected = personPage.waitForRequest((request) => request.url().startsWith('https://notes.example.com/callback?'));
  await personPage.getByTestId('consent-allow').click();
  expect(new URL((await redirected).url()).searchParams.get('code')).toBeTruthy();

  // The person changes their name: the product hears of it (the name and email its consent allows), signed with the secret just shown.
  expect((await personContext.request.put(`${consolePortal.url}/v3/sso/me`, { data: { full_name: 'Phan Renamed', language: 'en' } })).ok()).toBe(true);
  await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
  const event = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as { type: string; data: { name: string; email: string } };
  expect(event).toMatchObject({ type: 'user.updated', data: { name: 'Phan Renamed', email: person.email } });

  await expect(page.getByTestId('webhook-log-row').first()).toContainText('user.updated', { timeout: 15_000 });
  await expect(page.getByTestId('webhook-log-row').first()).toContainText('204', { timeout: 15_000 });
  await looksRight(page, 'admin-webhooks-log-1440-en');

  // The receiver is down when the person changes their name again: the event waits for its retry.
  downFor = 1;
  expect((await personContext.request.put(`${consolePortal.url}/v3/sso/me`, { data: { full_name: 'Phan Waiting', language: 'en' } })).ok()).toBe(true);
  await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
  // The person revokes Notes before the retry (5 s later): the waiting event is never sent again, and the log says why.
  expect((await personContext.request.delete(`${consolePortal.url}/v3/sso/me/connected-apps/${clientId}`)).status()).toBe(204);
  await expect(page.getByTestId('webhook-log-row').first()).toContainText('The person no longer allows this app to learn it: not sent', { timeout: 25_000 });
  await expect(page.getByTestId('webhook-log-error').first()).toHaveText('not_allowed');
  expect(received).toHaveLength(2);
  await looksRight(page, 'admin-webhooks-not-allowed-1440-en');

  // The owner's redelivery of the person's event is refused, and says why.
  const redeliverRefused = async (message: string, shot: string) => {
    await page.getByTestId('webhook-redeliver').first().click();
    await dialog.getByTestId('action-reason').fill('Notes lost the event');
    await dialog.getByTestId('action-confirm').click();
    await expect(dialog.getByTestId('action-error')).toHaveText(message);
    await looksRight(page, shot);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  };
  await redeliverRefused('The person no longer allows this app to learn this: the event cannot be sent again', 'admin-webhooks-redeliver-refused-1440-en');
  // The same refusal on a phone, in Vietnamese.
  await page.setViewportSize({ width: 390, height: 844 });
  await chooseLanguage(page, 'vi');
  await redeliverRefused('Người dùng không còn cho phép ứng dụng này biết điều này: không thể gửi lại sự kiện', 'admin-webhooks-redeliver-refused-390-vi');
  expect(received).toHaveLength(2);
  expect(errors).toEqual([]);
  await personContext.close();
  await context.close();
});

test('support reads the log on a phone in Vietnamese, without a change to make; the admin API refuses support its change', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await consolePortal.signInAs(context, support);
  const page = await context.newPage();
  await page.goto(`${consolePortal.url}/admin/webhooks`);
  const row = page.getByTestId('webhook-app').filter({ hasText: clientId });
  await row.getByTestId('webhook-manage').click();
  // The delivery the person's revocation stopped, in both languages.
  await expect(page.getByTestId('webhook-log-row').first()).toContainText('The person no longer allows this app to learn it: not sent');
  await looksRight(page, 'admin-webhooks-not-allowed-390-en');
  await chooseLanguage(page, 'vi');
  await expect(page.getByTestId('webhook-log-row').first()).toContainText('user.updated');
  await expect(page.getByTestId('webhook-log-row').first()).toContainText('Người dùng không còn cho phép ứng dụng này biết điều này: không gửi');
  await expect(page.getByTestId('webhook-save')).toHaveCount(0);
  await expect(page.getByTestId('webhook-redeliver')).toHaveCount(0);
  await expect(page.getByTestId('webhook-rotate')).toHaveCount(0);
  await looksRight(page, 'admin-webhooks-390-vi');
  await page.setViewportSize({ width: 1440, height: 900 });
  await looksRight(page, 'admin-webhooks-not-allowed-1440-vi');
  await page.setViewportSize({ width: 390, height: 844 });
  const refused = await context.request.put(`${consolePortal.url}/v3/admin/webhooks/${clientId}`, { data: { url: 'https://attacker.example.com/', events: ['user.created'], reason: 'support tries' } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('admin.forbidden');
  await context.close();
});

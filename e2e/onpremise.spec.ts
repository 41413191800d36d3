import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { operatorCommand, startPortalServer, type PortalServer } from './support/server';

/**
 * On-premise discovery on the password manager's sign-in page, in Chromium: an
 * organization's deployment is registered with `npm run organizations` before the spec's own
 * server starts; its "on-premise login page" is a tiny local server of this spec, which also
 * serves a page that opens the sign-in in a new window (as a login client would) and records
 * the messages it receives.
 */
test.describe.configure({ mode: 'serial' });

let portal: PortalServer;
let onPrem: Server;
let onPremUrl: string;
let dataDir: string;

function startOnPremServer(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/login') {
      const email = (url.searchParams.get('email') ?? '').replace(/[<>&"]/g, '');
      response.end(`<!doctype html><title>On-premise</title><h1>On-premise login</h1><p data-testid="email">${email}</p>`);
    } else if (url.pathname === '/client') {
      // The "login client": opens the portal's sign-in and keeps every message it receives.
      response.end(
        `<!doctype html><title>Client</title><button id="open">Open sign-in</button><pre id="received"></pre><script>
          window.received = [];
          window.addEventListener('message', (event) => { window.received.push(event.data); document.getElementById('received').textContent = JSON.stringify(window.received); });
          document.getElementById('open').addEventListener('click', () => window.open(${JSON.stringify(url.searchParams.get('target') ?? '')}, '_blank'));
        </script>`,
      );
    } else {
      response.statusCode = 404;
      response.end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  onPrem = await startOnPremServer();
  onPremUrl = `http://127.0.0.1:${(onPrem.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-onpremise-'));
  const env = { NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'db') };
  // The login client's origin is one a sign-in may return to: the only kind the result is posted to.
  const serverEnv = { ...env, ALLOWED_REDIRECT_ORIGINS: onPremUrl };
  // Registered the way an operator does it (before the server opens the database).
  const organizations = (...args: string[]) => operatorCommand('organizations-admin', args, env);
  await organizations('create', 'Acme', '--admin', 'member@acme.example');
  await organizations('onpremise', 'Acme', '--base-api', 'https://api.acme.example', '--login-url', `${onPremUrl}/login`, '--require-passwordless');
  await organizations('create', 'Sleepy', '--admin', 'admin@sleepy.example');
  await organizations('onpremise', 'admin@sleepy.example', '--base-api', 'https://api.sleepy.example', '--login-url', `${onPremUrl}/login`, '--inactive');
  portal = await startPortalServer({ env: serverEnv });
});

test.afterAll(async () => {
  await portal?.close();
  await new Promise((resolve) => (onPrem ? onPrem.close(resolve) : resolve(undefined)));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function continueWith(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email or username').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a member of an organization with an on-premise server is sent to its login page', async ({ page }) => {
  await page.goto(`${portal.lockerUrl}/login`);
  await continueWith(page, 'Member@Acme.example');
  await expect(page).toHaveURL(`${onPremUrl}/login?email=member%40acme.example`);
  await expect(page.getByTestId('email')).toHaveText('member@acme.example');
});

/** The login client's page, which opens `target` in a new window, and that window. */
async function openFromClient(page: Page, target: string): Promise<Page> {
  await page.goto(`${onPremUrl}/client?target=${encodeURIComponent(target)}`);
  const popupEvent = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Open sign-in' }).click();
  return popupEvent;
}

const received = (page: Page) => page.evaluate(() => (window as unknown as { received: unknown[] }).received);

test('the window that opened the sign-in and named its origin receives the result there', async ({ page }) => {
  const popup = await openFromClient(page, `${portal.lockerUrl}/login?origin=${encodeURIComponent(onPremUrl)}`);
  await continueWith(popup, 'member@acme.example');
  await expect(popup).toHaveURL(`${onPremUrl}/login?email=member%40acme.example`);
  await expect.poll(() => received(page)).toEqual([
    {
      type: 'onpremise',
      result: {
        activated: true,
        base_api: 'https://api.acme.example',
        email: 'member@acme.example',
        avatar: null,
        require_passwordless: true,
        set_up_passwordless: true,
        login_url: `${onPremUrl}/login`,
      },
    },
  ]);
});

test('an opener that names no origin, or another one, receives nothing; the sign-in still goes on', async ({ page }) => {
  for (const query of ['', `?origin=${encodeURIComponent('http://127.0.0.1:1')}`]) {
    const popup = await openFromClient(page, `${portal.lockerUrl}/login${query}`);
    await continueWith(popup, 'member@acme.example');
    await expect(popup).toHaveURL(`${onPremUrl}/login?email=member%40acme.example`);
    // The client's page would have the message by the time the on-premise page has loaded.
    expect(await received(page)).toEqual([]);
    await popup.close();
  }
});

test('an inactive deployment says not activated and stays on the page', async ({ page }) => {
  await page.goto(`${portal.lockerUrl}/login`);
  await continueWith(page, 'admin@sleepy.example');
  await expect(page.getByTestId('onpremise-not-activated')).toContainText('not activated');
  await expect(page).toHaveURL(`${portal.lockerUrl}/login`);
});

test('anyone else goes on to the password step', async ({ page }) => {
  await page.goto(`${portal.lockerUrl}/login`);
  await continueWith(page, 'stranger@example.com');
  await expect(page).toHaveURL(/\/login\/password/);
});

import { request as httpRequest } from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Cookie, Page } from '@playwright/test';

const SCREENSHOTS = fileURLToPath(new URL('../screenshots', import.meta.url));

/**
 * Screenshots are for people to look at, and each costs a few hundred milliseconds of a busy
 * CPU: CI (CI=true) skips them unless E2E_SCREENSHOTS=1; E2E_SCREENSHOTS=0 skips them anywhere.
 */
export const screenshotsOn = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS === '1' : !process.env.CI;

/**
 * Why a test that only walks pages for their screenshots is skipped without them: what it
 * would check (each screen renders in both brands and languages, without script errors or
 * CSP violations) the accessibility sweep checks on the same screens.
 */
export const SCREENSHOTS_ONLY = 'screenshots only (E2E_SCREENSHOTS=1): e2e/accessibility.spec.ts opens these screens in both brands and languages';

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) so engineers can
 * look at every state the specs visit. Returns the file, or null when screenshots are off.
 */
export async function snap(page: Page, name: string): Promise<string | null> {
  if (!screenshotsOn) return null;
  const file = path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** Uncaught errors of the page's scripts from now on (an array that fills as they happen). */
export function pageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return errors;
}

/** Console messages about the Content-Security-Policy from now on: the app must work under it. */
export function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) found.push(message.text());
  });
  return found;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * GET `url` as the server sees it before any script runs. Connects to 127.0.0.1 and sends
 * the URL's host in the Host header, so `locker.localhost` works whether or not this
 * machine's resolver knows it.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        headers: { host: target.host, accept: 'text/html', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The cookies of `context` for `url`, by name. */
export async function cookieMap(context: BrowserContext, url: string): Promise<Map<string, Cookie>> {
  return new Map((await context.cookies(url)).map((cookie) => [cookie.name, cookie]));
}

/** Seconds until `cookie` expires (negative: session cookie). */
export function secondsLeft(cookie: Cookie): number {
  return cookie.expires < 0 ? -1 : cookie.expires - Date.now() / 1000;
}

/**
 * Picks a language with the header's language picker (data-testid="language-picker"),
 * whether it is a native <select> or a button that opens a list of options or menu items.
 */
export async function chooseLanguage(page: Page, code: 'en' | 'vi'): Promise<void> {
  const label = code === 'vi' ? /Tiếng Việt|Vietnamese|^VI$/i : /English|^EN$/i;
  const picker = page.getByTestId('language-picker');
  const tag = await picker.evaluate((element) => element.tagName);
  if (tag === 'SELECT') {
    await picker.selectOption(code);
    return;
  }
  await picker.click();
  const choice = page
    .getByRole('option', { name: label })
    .or(page.getByRole('menuitem', { name: label }))
    .or(page.getByRole('menuitemradio', { name: label }));
  await choice.first().click();
}

/**
 * chooseLanguage on a signed-in page that reloads next: waits until the account has saved the
 * choice, since a reload before that reads the old language back from the account.
 */
export async function chooseLanguageSaved(page: Page, code: 'en' | 'vi'): Promise<void> {
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && new URL(response.url()).pathname.endsWith('/sso/me'));
  await chooseLanguage(page, code);
  await saved;
}

/**
 * Waits until a sign-in or a password proof answered at `answeredAt` (Date.now() taken after its
 * answer) is older than the server's recent-proof window of `windowSeconds`, with a second to
 * spare: only the rest of the window, as what the spec did meanwhile counts towards it.
 */
export async function outlastProofWindow(page: Page, answeredAt: number, windowSeconds: number): Promise<void> {
  await page.waitForTimeout(Math.max(0, answeredAt + (windowSeconds + 1) * 1000 - Date.now()));
}

/** A platform authenticator (DevTools' virtual one) that holds discoverable credentials and verifies the user without asking. */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

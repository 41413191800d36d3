import { existsSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, WEB_DIST, type TestServer } from '../../../test/harness';

/**
 * The sign-in page's first screen, on the built web app (packages/web/dist with its
 * server-side bundle, dist/.ssr): the markup, the inlined styles and the deferred scripts
 * in the shell of a plain /login, nothing for any other page or visitor.
 */
const built = existsSync(path.join(WEB_DIST, '.ssr', 'first-screen.js'));

let server: TestServer;
beforeAll(async () => {
  if (built) server = await startTestServer();
});
afterAll(() => server?.close());

const page = (url: string, headers: Record<string, string> = {}) => server.app.inject({ url, headers: { host: 'localhost', ...headers } });

/** The screens are rendered just after start-up: wait until /login carries one. */
async function firstScreenPage(headers: Record<string, string> = {}) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await page('/login', headers);
    if (response.body.includes('data-first-screen') || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(built)('the first screen of /login', () => {
  it('is in the shell, with the entry styles inline, the page chunk’s as links, and every style and script under the nonce', async () => {
    const response = await firstScreenPage();
    expect(response.statusCode).toBe(200);
    const body = response.body;
    expect(body).toMatch(/<div data-first-screen inert>/);
    expect(body).toContain('>Sign in</h1>');
    expect(body).toContain('name="username"');
    expect(body).toMatch(/<input readonly /);
    // No style attributes (the CSP refuses them in markup). The entry's stylesheet is inline; the
    // page chunk's small ones are links, which the live page's chunk loader then finds and does
    // not fetch again.
    expect(body).not.toMatch(/<[^>]+\sstyle="/);
    // Named by a disabled link only (never fetched), so that the chunk loader finds it and does not fetch it again.
    expect(body).not.toMatch(/<link rel="stylesheet"[^>]*href="\/assets\/index-[^"]+"(?! disabled)>/);
    expect(body).toMatch(/<link rel="stylesheet"[^>]* href="\/assets\/index-[\w-]+\.css" disabled>/);
    const pageLinks = [...body.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)">/g)].map((match) => match[1]!);
    expect(pageLinks.length).toBeGreaterThan(0);
    // Mantine's theme variables: only those the screen reads (not all ~25 KB of them).
    expect(body).toContain('--mantine-font-family:');
    expect(body).toContain('--mantine-radius-default:'); // read by the page chunk's linked stylesheet (its buttons)
    expect(body).not.toContain('--mantine-color-grape-5:');
    // The app's entry is imported after the first paint, not by a <script src> the parser fetches at once.
    expect(body).not.toMatch(/<script[^>]*\ssrc=/);
    expect(body).toMatch(/requestAnimationFrame\([\s\S]*import\("\/assets\/index-[\w-]+\.js"\)/);
    const nonce = response.headers['content-security-policy']!.toString().match(/'nonce-([^']+)'/)![1]!;
    for (const tag of body.match(/<(script|style)\b[^>]*>/g)!) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('comes in the language and brand of the shell', async () => {
    const vi = await firstScreenPage({ 'accept-language': 'vi-VN,vi;q=0.9' });
    expect(vi.body).toContain('>Đăng nhập</h1>');
    const locker = await firstScreenPage({ host: 'locker.localhost' });
    expect(locker.body).toContain('data-first-screen');
    expect(locker.body).toContain('/brand/locker/');
  });

  it('goes compressed in the coding the client accepts, as it is when it accepts none', async () => {
    await firstScreenPage();
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accepted, expected] of cases) {
      const response = await page('/login', accepted === undefined ? {} : { 'accept-encoding': accepted });
      const label = `Accept-Encoding: ${accepted ?? '(none)'}`;
      expect(response.headers['content-encoding'], label).toBe(expected);
      expect(response.headers.vary, label).toContain('Accept-Encoding');
      expect(response.headers['content-type'], label).toBe('text/html; charset=utf-8');
      const decoded = expected === 'br' ? brotliDecompressSync(response.rawPayload) : expected === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
      expect(decoded.toString(), label).toContain('data-first-screen');
      expect(decoded.toString(), label).toMatch(/<\/html>\s*$/);
    }
  });

  it('is left out for a signed-in visitor, an entry query or cookie, and other pages', async () => {
    await firstScreenPage();
    for (const [url, headers] of [
      ['/login', { cookie: 'auth_token=abc' }],
      ['/login', { cookie: '__Host-auth_token=abc' }],
      ['/login', { cookie: 'SERVICE_SCOPE=pwdmanager' }],
      ['/login?SERVICE_SCOPE=pwdmanager', {}],
      ['/register', {}],
    ] as const) {
      const response = await page(url, headers);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, `${url} ${JSON.stringify(headers)}`).not.toContain('data-first-screen');
      expect(response.body).toMatch(/<script[^>]*type="module"[^>]*src=/);
    }
  });

  it('never serves the server-side bundle nor the build manifest', async () => {
    expect((await page('/.ssr/first-screen.js')).statusCode).toBe(404);
    expect((await page('/.vite/manifest.json')).statusCode).toBe(404);
  });
});

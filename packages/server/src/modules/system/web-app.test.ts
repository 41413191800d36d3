import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, WEB_DIST, type TestServer } from '../../../test/harness';

/** A stand-in for the built app: the same placeholders vite's output keeps. */
const TEMPLATE = `<!doctype html><html lang="en" data-brand="%BRAND_ID%"><head><!--portal-head-->
<script type="module" crossorigin src="/assets/app-1.js"></script><link rel="modulepreload" href="/assets/chunk.js">
<link rel="stylesheet" href="/assets/app-1.css"></head><body><div id="root"></div></body></html>`;

/** An asset as the build leaves it: the file and its Brotli and gzip copies. */
const ASSET = `export const greeting = "hello";\n${'console.log(greeting);\n'.repeat(200)}`;
const ASSET_BR = brotliCompressSync(ASSET);
const ASSET_GZ = gzipSync(ASSET);
const TINY = 'export{}';

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

let server: TestServer;
let dist: string;
beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), TEMPLATE);
  await writeFile(path.join(dist, 'assets', 'app-1.js'), ASSET);
  await writeFile(path.join(dist, 'assets', 'app-1.js.br'), ASSET_BR);
  await writeFile(path.join(dist, 'assets', 'app-1.js.gz'), ASSET_GZ);
  // As the build leaves a file whose gzip copy would be larger than itself: Brotli only.
  await writeFile(path.join(dist, 'assets', 'tiny-1.js'), TINY);
  await writeFile(path.join(dist, 'assets', 'tiny-1.js.br'), brotliCompressSync(TINY));
  server = await startTestServer({ webDist: dist });
});
afterAll(() => server.close());

const page = (url: string, host = 'localhost') => server.app.inject({ url, headers: { host } });

describe('HTML shell', () => {
  it('carries the platform brand before any script runs', async () => {
    const response = await page('/login', 'localhost:8080');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>CyStack ID</title>');
    expect(response.body).toContain('<meta name="theme-color" content="#1D4ED8">');
    expect(response.body).toContain('data-brand="platform"');
    const config = JSON.parse(response.body.match(/<script id="portal-config"[^>]*>(.*?)<\/script>/)![1]!);
    expect(config).toMatchObject({ brand: 'platform', apiBaseUrl: '/v3', language: 'en' });
  });

  it("embeds the visitor's language as GET /v3/resources/lang would answer it", async () => {
    const response = await server.app.inject({ url: '/login', headers: { host: 'localhost', 'accept-language': 'vi-VN,vi;q=0.9' } });
    const config = JSON.parse(response.body.match(/<script id="portal-config"[^>]*>(.*?)<\/script>/)![1]!);
    expect(config.language).toBe('vi');
    const api = await server.app.inject({ url: '/v3/resources/lang', headers: { host: 'localhost', 'accept-language': 'vi-VN,vi;q=0.9' } });
    expect(api.json().lang).toBe(config.language);
  });

  it('serves the locker brand on its host with its own API base', async () => {
    const response = await page('/login', 'locker.localhost:8080');
    expect(response.body).toContain('<title>Locker ID</title>');
    expect(response.body).toContain('<meta name="theme-color" content="#268334">');
    const config = JSON.parse(response.body.match(/<script id="portal-config"[^>]*>(.*?)<\/script>/)![1]!);
    expect(config.apiBaseUrl).toBe('http://locker.localhost:8080/v3');
  });

  it('puts a fresh nonce on every script, style and preload, and in the CSP', async () => {
    const first = await page('/');
    const second = await page('/');
    const nonce = first.headers['content-security-policy']!.toString().match(/'nonce-([^']+)'/)![1]!;
    expect(second.headers['content-security-policy']).not.toContain(nonce);
    const tags = first.body.match(/<(script|link rel="(stylesheet|modulepreload)")[^>]*>/g)!;
    expect(tags.length).toBe(4);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(first.headers['cache-control']).toBe('no-store');
  });

  it('answers 404 for pages outside the route table, still with the app', async () => {
    const response = await page('/no/such/page');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<div id="root">');
  });

  it('serves hashed assets with long caching and 404s missing files in the error shape', async () => {
    const asset = await page('/assets/app-1.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await page('/assets/gone-2.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    expect((await page('/index.html')).statusCode).toBe(404);
  });

  it('sends the build-time Brotli or gzip copy the client accepts, else the file itself, the same bytes once decoded, each with its headers', async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
      [undefined, undefined],
    ];
    for (const [accepted, expected] of cases) {
      const response = await server.app.inject({ url: '/assets/app-1.js', headers: { host: 'localhost', ...(accepted === undefined ? {} : { 'accept-encoding': accepted }) } });
      const label = `Accept-Encoding: ${accepted ?? '(none)'}`;
      expect(response.statusCode, label).toBe(200);
      expect(response.headers['content-encoding'], label).toBe(expected);
      expect(response.rawPayload.length, label).toBe({ br: ASSET_BR.length, gzip: ASSET_GZ.length }[expected ?? ''] ?? Buffer.byteLength(ASSET));
      expect(decode(response.rawPayload, expected), label).toBe(ASSET);
      // The type of the file, not of its copy (.br, .gz).
      expect(response.headers['content-type'], label).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
      expect(response.headers['cache-control'], label).toBe('public, max-age=31536000, immutable');
      // Caches keep one copy per encoding, the uncompressed answer included.
      expect(response.headers.vary, label).toContain('accept-encoding');
      // Each copy is its own representation: revalidating it answers 304.
      const etag = response.headers.etag as string;
      expect(etag, label).toMatch(/^(W\/)?"/);
      const again = await server.app.inject({ url: '/assets/app-1.js', headers: { host: 'localhost', 'if-none-match': etag, ...(accepted === undefined ? {} : { 'accept-encoding': accepted }) } });
      expect(again.statusCode, label).toBe(304);
    }
  });

  it('falls back to the file itself when the build kept no copy in the accepted encoding (a file compression did not shrink)', async () => {
    const gzip = await server.app.inject({ url: '/assets/tiny-1.js', headers: { host: 'localhost', 'accept-encoding': 'gzip' } });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers['content-encoding']).toBeUndefined();
    expect(gzip.body).toBe(TINY);
    expect(gzip.headers.vary).toContain('accept-encoding');
    const br = await server.app.inject({ url: '/assets/tiny-1.js', headers: { host: 'localhost', 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(TINY);
  });

  it('escapes the runtime config so it cannot close its script element', async () => {
    const other = await startTestServer({ webDist: dist, env: { MAIN_SITE_URL: 'https://x.example/</script><script>alert(1)</script>' } });
    const body = (await other.app.inject('/login')).body;
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(body).toContain('\\u003c/script\\u003e');
    await other.close();
  });
});

describe('third-party sources in the page CSP', () => {
  it('allows the support chat host only when it is configured', async () => {
    const plain = (await page('/login')).headers['content-security-policy'];
    expect(plain).not.toContain('chat.example.com');
    const chat = await startTestServer({ webDist: dist, env: { CHATWOOT_BASE_URL: 'https://chat.example.com', CHATWOOT_WEBSITE_TOKEN: 'tok', CHATWOOT_HMAC_SECRET: 'a-long-enough-secret' } });
    const csp = String((await chat.app.inject('/login')).headers['content-security-policy']);
    expect(csp).toMatch(/script-src [^;]*https:\/\/chat\.example\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/chat\.example\.com/);
    await chat.close();
  });

  it('allows Stripe.js (script, frames, API) only when Stripe is the payment processor', async () => {
    const plain = String((await page('/login')).headers['content-security-policy']);
    expect(plain).not.toContain('stripe.com');
    const stripe = await startTestServer({ webDist: dist, env: { PAYMENTS_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_PUBLISHABLE_KEY: 'pk_test_local', STRIPE_WEBHOOK_SECRET: 'whsec_local' } });
    const csp = String((await stripe.app.inject('/billing')).headers['content-security-policy']);
    expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
    await stripe.close();
  });
});

describe.runIf(existsSync(path.join(WEB_DIST, '.vite', 'manifest.json')))('the built web app', () => {
  it('has a Brotli and a gzip copy of every script and stylesheet that compression shrinks, each the file once decoded', async () => {
    const assets = path.join(WEB_DIST, 'assets');
    const files = (await readdir(assets)).filter((name) => /\.(js|css)$/.test(name));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const source = await readFile(path.join(assets, name));
      for (const [suffix, decode] of [['.br', brotliDecompressSync], ['.gz', gunzipSync]] as const) {
        const copy = await readFile(path.join(assets, name + suffix)).catch(() => undefined);
        // Only a file its compression would not shrink goes without (a few tiny chunks).
        if (!copy) expect(source.length, name + suffix).toBeLessThan(200);
        else expect(decode(copy).equals(source), name + suffix).toBe(true);
      }
    }
  });
});

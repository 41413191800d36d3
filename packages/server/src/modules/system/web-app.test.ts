import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

/** A stand-in for the built app: the same placeholders vite's output keeps. */
const TEMPLATE = `<!doctype html><html lang="en" data-brand="%BRAND_ID%"><head><!--portal-head-->
<script type="module" crossorigin src="/assets/app-1.js"></script><link rel="modulepreload" href="/assets/chunk.js">
<link rel="stylesheet" href="/assets/app-1.css"></head><body><div id="root"></div></body></html>`;

let server: TestServer;
let dist: string;
beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), TEMPLATE);
  await writeFile(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'assets', 'app-1.js.br'), brotliCompressSync('console.log(1)'));
  await writeFile(path.join(dist, 'assets', 'app-1.js.gz'), gzipSync('console.log(1)'));
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

  it('sends the build-time Brotli or gzip copy of an asset the browser accepts, and the file itself otherwise', async () => {
    const br = await server.app.inject({ url: '/assets/app-1.js', headers: { host: 'localhost', 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gz = await server.app.inject({ url: '/assets/app-1.js', headers: { host: 'localhost', 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await server.app.inject({ url: '/assets/app-1.js', headers: { host: 'localhost', 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
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

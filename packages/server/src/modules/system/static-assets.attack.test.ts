import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

/**
 * Static files by Accept-Encoding: no request, whatever coding it asks for, reads a file beside
 * the web build or one of the server's own files in it (the shell's template, the first screen's
 * server bundle, the build manifest), through their .br/.gz copies or encoded paths either.
 */

const CODINGS = ['', 'br', 'gzip', 'br, gzip', '*'];
let server: TestServer;
beforeAll(async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'static-attack-'));
  const dist = path.join(root, 'dist');
  for (const folder of ['assets', '.ssr', '.vite']) await mkdir(path.join(dist, folder), { recursive: true });
  /** A file and its Brotli and gzip copies, each marked so a leak is seen whichever is sent. */
  const withCopies = async (file: string, text: string) => {
    await writeFile(file, text);
    await writeFile(`${file}.br`, brotliCompressSync(text));
    await writeFile(`${file}.gz`, gzipSync(text));
  };
  await withCopies(path.join(root, 'secret.txt'), 'OUTSIDE-THE-BUILD');
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><html><head><!--portal-head--></head><body>TEMPLATE</body></html>');
  await withCopies(path.join(dist, '.ssr', 'first-screen.js'), 'SERVER-BUNDLE');
  await withCopies(path.join(dist, '.vite', 'manifest.json'), '{"SERVER-MANIFEST":1}');
  await withCopies(path.join(dist, 'assets', 'app-1.js'), `export const x = 1;\n${'console.log(x);\n'.repeat(100)}`);
  server = await startTestServer({ webDist: dist });
  // Written once the server runs: not a file of the build it started with.
  await withCopies(path.join(dist, 'assets', 'later.js'), 'WRITTEN-AFTER-THE-START');
});
afterAll(() => server?.close());

const get = (url: string, coding: string) => server.app.inject({ url, headers: { host: 'localhost', ...(coding ? { 'accept-encoding': coding } : {}) } });

describe('static files by Accept-Encoding, as an attacker asks', () => {
  const refused = [
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/index.html',
    '/INDEX.HTML',
    '/index.html%00',
    '/.ssr/first-screen.js',
    '/.ssr/first-screen.js.br',
    '/.ssr/first-screen.js.gz',
    '//.ssr/first-screen.js',
    '/%2essr/first-screen.js',
    '/./.ssr/first-screen.js',
    '/assets/../.ssr/first-screen.js',
    '/assets/%2e%2e/.ssr/first-screen.js',
    '/.ssr%2ffirst-screen.js',
    '/.vite/manifest.json',
    '/.vite/manifest.json.br',
    '/.vite/manifest.json.gz',
    '/%2Evite/manifest.json',
    // Another spelling of a public file's name: a file is served by its exact path only.
    '/ASSETS/app-1.js',
    '/assets/APP-1.js',
    '/assets//app-1.js',
  ];

  it.each(refused)('%s reads nothing outside the public build, in any coding', async (url) => {
    for (const coding of CODINGS) {
      const response = await get(url, coding);
      expect([403, 404], `${url} (${coding || 'no header'})`).toContain(response.statusCode);
      expect(response.headers['content-encoding']).toBeUndefined();
      const body = response.rawPayload.toString('latin1');
      for (const leak of ['OUTSIDE-THE-BUILD', 'SERVER-BUNDLE', 'SERVER-MANIFEST', 'TEMPLATE']) expect(body).not.toContain(leak);
    }
  });

  it('an asset answers with its own type and Vary in every coding, so a shared cache keeps the copies apart', async () => {
    for (const coding of CODINGS) {
      const response = await get('/assets/app-1.js', coding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
    }
  });

  it('a file written into the build once the server runs is not served: the files are those of the build it started with', async () => {
    for (const coding of CODINGS) {
      const response = await get('/assets/later.js', coding);
      expect(response.statusCode).toBe(404);
      expect(response.rawPayload.toString('latin1')).not.toContain('WRITTEN-AFTER-THE-START');
    }
  });
});

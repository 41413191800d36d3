import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { BenchContext } from '../lib/context';
import type { BenchSection, Row } from '../lib/types';

/** JavaScript + CSS that a first visit to /login may carry on the wire, as a browser gets it (Brotli where accepted). */
export const LOGIN_BUDGET_KB = 100;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Transfer {
  path: string;
  type: 'script' | 'stylesheet';
  /** Bytes of the body as sent (compressed when the server compressed it). */
  wire: number;
  /** Bytes after decoding. */
  decoded: number;
  encoding: string;
}

/**
 * One first visit to /login (fresh context, empty cache) sending `acceptEncoding`, until the
 * network is idle: every script and stylesheet response, lazy chunks included, by the size
 * of its body on the wire (Chromium's own count of the encoded body). The stylesheets the
 * server-rendered first screen inlines in the page count too, at the size the page's own
 * encoding gives their text.
 */
async function firstVisit(browser: Browser, url: string, acceptEncoding: string): Promise<Transfer[]> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-encoding': acceptEncoding } });
  const page = await context.newPage();
  const pending: Array<Promise<Transfer | undefined>> = [];
  page.on('requestfinished', (request) => {
    const type = request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      (async () => {
        const response = await request.response();
        if (!response || response.status() !== 200) return undefined;
        const [sizes, body, headers] = await Promise.all([request.sizes(), response.body(), response.allHeaders()]);
        return { path: new URL(request.url()).pathname, type, wire: sizes.responseBodySize, decoded: body.length, encoding: headers['content-encoding'] ?? 'identity' };
      })(),
    );
  });
  try {
    const navigation = await page.goto(url, { waitUntil: 'networkidle' });
    if (!navigation?.ok()) throw new Error(`GET ${url} answered ${navigation?.status()} (is the web app built?)`);
    const transfers = (await Promise.all(pending)).filter((transfer): transfer is Transfer => !!transfer);
    const inlineCss = [...(await navigation.text()).matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!).join('\n');
    if (inlineCss) {
      const encoding = (await navigation.allHeaders())['content-encoding'] ?? 'identity';
      const wire =
        encoding === 'br' ? brotliCompressSync(inlineCss, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }).length : encoding === 'gzip' ? gzipSync(inlineCss).length : Buffer.byteLength(inlineCss);
      transfers.push({ path: '/login <style>', type: 'stylesheet', wire, decoded: Buffer.byteLength(inlineCss), encoding });
    }
    // One answer per file (a chunk asked for twice is loaded once).
    return [...new Map(transfers.map((transfer) => [transfer.path, transfer])).values()];
  } finally {
    await context.close();
  }
}

const total = (transfers: Transfer[], type?: Transfer['type']) => transfers.filter((t) => !type || t.type === type).reduce((sum, t) => sum + t.wire, 0);

/**
 * Bytes of a first visit to /login in Chromium, as they cross the wire: once as a browser asks
 * (`br, gzip`; the budget) and once from a client that takes gzip only. 1 KB = 1024 bytes.
 */
export const loginBundle: BenchSection = {
  name: 'bundle',
  title: '/login first visit: JS + CSS on the wire',
  async run(context: BenchContext): Promise<Row[]> {
    const server = await context.realApp();
    const browser = await context.browser();
    // localhost (not 127.0.0.1) so the platform brand is served, as a visitor would get it.
    const url = `http://localhost:${server.port}/login`;
    const brotli = await firstVisit(browser, url, 'br, gzip');
    const gzip = await firstVisit(browser, url, 'gzip');
    const count = (type: Transfer['type']) => brotli.filter((t) => t.type === type).length;
    const notCompressed = brotli.filter((t) => t.encoding !== 'br');
    const largest = [...brotli].sort((a, b) => b.wire - a.wire).slice(0, 3);
    const budget = total(brotli);
    return [
      { metric: `JavaScript (${count('script')} files)`, value: kb(total(brotli, 'script')), status: 'INFO', note: 'Brotli' },
      { metric: `CSS (${count('stylesheet')} files)`, value: kb(total(brotli, 'stylesheet')), status: 'INFO', note: 'Brotli' },
      {
        metric: 'total on the wire (Accept-Encoding: br, gzip)',
        value: kb(budget),
        target: `≤ ${LOGIN_BUDGET_KB} KB`,
        status: budget <= LOGIN_BUDGET_KB * 1024 ? 'PASS' : 'FAIL',
        note: `${kb(brotli.reduce((sum, t) => sum + t.decoded, 0))} decoded; largest: ${largest.map((t) => `${t.path} ${kb(t.wire)}`).join(', ')}${notCompressed.length ? `; not Brotli: ${notCompressed.map((t) => `${t.path} (${t.encoding})`).join(', ')}` : ''}`,
      },
      { metric: 'total on the wire (Accept-Encoding: gzip)', value: kb(total(gzip)), status: 'INFO', note: 'a client without Brotli' },
    ];
  },
};

import { gzipSync } from 'node:zlib';
import type { Response } from 'playwright-core';
import type { BenchContext } from '../lib/context';
import type { BenchSection, Row } from '../lib/types';

/** Gzipped JavaScript + CSS that a first visit to /login may load. */
export const LOGIN_BUDGET_KB = 150;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Loads /login in a fresh Chromium context (empty cache) until the network is idle, and
 * sums the gzip -9 size of every script and stylesheet response it received, lazy chunks
 * included, and of the stylesheets inlined in the page itself (the server-rendered first
 * screen carries its CSS in <style> elements). 1 KB = 1024 bytes.
 */
export const loginBundle: BenchSection = {
  name: 'bundle',
  title: '/login first visit: JS + CSS',
  async run(context: BenchContext): Promise<Row[]> {
    const server = await context.realApp();
    const browser = await context.browser();
    const page = await (await browser.newContext()).newPage();
    const responses: Response[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type === 'script' || type === 'stylesheet') responses.push(response);
    });
    // localhost (not 127.0.0.1) so the platform brand is served, as a visitor would get it.
    const url = `http://localhost:${server.port}/login`;
    const navigation = await page.goto(url, { waitUntil: 'networkidle' });
    if (!navigation?.ok()) throw new Error(`GET ${url} answered ${navigation?.status()} (is the web app built?)`);

    const files = new Map<string, { type: string; raw: number; gzip: number }>();
    const inlineCss = [...(await navigation.text()).matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!).join('\n');
    if (inlineCss) files.set(`${url}#inline-styles`, { type: 'stylesheet', raw: Buffer.byteLength(inlineCss), gzip: gzipSync(inlineCss, { level: 9 }).length });
    for (const response of responses) {
      if (files.has(response.url()) || response.status() !== 200) continue;
      const body = await response.body();
      files.set(response.url(), { type: response.request().resourceType(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
    await page.context().close();

    const sum = (type?: string) => [...files.values()].filter((f) => !type || f.type === type).reduce((total, f) => total + f.gzip, 0);
    const count = (type: string) => [...files.values()].filter((f) => f.type === type).length;
    const total = sum();
    const raw = [...files.values()].reduce((t, f) => t + f.raw, 0);
    const largest = [...files.entries()].sort((a, b) => b[1].gzip - a[1].gzip).slice(0, 3);
    return [
      { metric: `JavaScript (${count('script')} files)`, value: kb(sum('script')), status: 'INFO' },
      { metric: `CSS (${count('stylesheet')} files)`, value: kb(sum('stylesheet')), status: 'INFO' },
      {
        metric: 'total gzipped (level 9)',
        value: kb(total),
        target: `≤ ${LOGIN_BUDGET_KB} KB`,
        status: total <= LOGIN_BUDGET_KB * 1024 ? 'PASS' : 'FAIL',
        note: `${kb(raw)} before gzip; largest: ${largest.map(([u, f]) => `${new URL(u).pathname} ${kb(f.gzip)}`).join(', ')}`,
      },
    ];
  },
};

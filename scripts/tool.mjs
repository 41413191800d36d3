#!/usr/bin/env node
/**
 * Runs a TypeScript entry point of the repository (an operator command, the benchmarks) on
 * Node 24 LTS, the runtime, through tsx:
 *
 *   node scripts/tool.mjs packages/server/src/operators-admin.ts grant ops@example.com owner
 *
 * package.json's `npm run clients|signing-keys|billing|wallet|organizations|operators|bench`
 * are this with their entry. Dependencies are installed first when package-lock.json changed;
 * `--with-chromium` also installs Debian's Chromium when it can (the benchmarks' Lighthouse run).
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureInstall, ROOT } from './ensure-install.mjs';
import { ensureNode24 } from './node24.mjs';

await ensureNode24();
ensureInstall();
const withChromium = process.argv[2] === '--with-chromium';
if (withChromium && (await ensureChromium()) !== 0) console.log('[tool] continuing without Chromium: the sections that need a browser will fail');
const [entry, ...args] = process.argv.slice(withChromium ? 3 : 2);
if (!entry) {
  console.error('usage: node scripts/tool.mjs <entry.ts> [arguments...]');
  process.exit(2);
}
const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(ROOT, entry), ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 1)));

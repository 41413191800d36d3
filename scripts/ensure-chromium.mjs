#!/usr/bin/env node
/**
 * Makes sure /usr/bin/chromium exists, installing Debian's `chromium` package with apt-get
 * when it is missing (as root; another user gets the command to run). The end-to-end tests
 * (`npm test`'s chromium stage) and the bench's browser sections (`npm run bench`) use it.
 * Playwright's own browser download does not work here.
 *
 *   node scripts/ensure-chromium.mjs              exit 1 when Chromium is still missing
 *   node scripts/ensure-chromium.mjs --optional   says so but exits 0 (`npm run bench`:
 *                                                 sections without a browser still run,
 *                                                 the browser ones then report FAIL)
 *
 * Plain Node, no dependencies.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand as run } from './run-command.mjs';

export const CHROMIUM = '/usr/bin/chromium';

/** Installs Chromium when missing; resolves with 0 when /usr/bin/chromium is there, else an exit code. */
export async function ensureChromium() {
  if (existsSync(CHROMIUM)) {
    console.log(`${CHROMIUM} is installed`);
    return 0;
  }
  if (process.getuid?.() !== 0) {
    console.log(
      `${CHROMIUM} is missing and this user cannot install it.\n` +
        `Install Debian's Chromium as root:  apt-get update && apt-get install -y chromium\n` +
        `(Playwright's own browser download does not work here; the tests use the system Chromium.)`,
    );
    return 1;
  }
  console.log(`${CHROMIUM} is missing: installing Debian's chromium package`);
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  const updated = await run('apt-get', [...lockWait, 'update']);
  if (updated !== 0) return updated;
  const installed = await run('apt-get', [...lockWait, 'install', '-y', '--no-install-recommends', 'chromium'], {
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (installed !== 0 || !existsSync(CHROMIUM)) {
    console.log(`apt-get install chromium failed; ${CHROMIUM} is still missing`);
    return installed || 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const optional = process.argv.includes('--optional');
  const code = await ensureChromium();
  if (code !== 0 && optional) console.log('[ensure-chromium] continuing without Chromium: the sections that need a browser will fail');
  process.exitCode = optional ? 0 : code;
}

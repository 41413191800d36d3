#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is here, installing it with apt-get when it is missing (as
 * root; another user gets the command to run): `chromium` (/usr/bin/chromium: Lighthouse in
 * `npm run bench`, which measures the browser people use) and `chromium-headless-shell`
 * (/usr/bin/chromium-headless-shell: the end-to-end tests and the bench's other browser
 * sections; the old headless mode Playwright itself runs by default, lighter on the CPU, and it
 * ignores a page's hand-off to a desktop app's private scheme where full Chromium hung).
 * Playwright's own browser download does not work here.
 *
 *   node scripts/ensure-chromium.mjs              exit 1 when a browser is still missing
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
export const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const PACKAGES = [
  { name: 'chromium', binary: CHROMIUM },
  { name: 'chromium-headless-shell', binary: CHROMIUM_HEADLESS_SHELL },
];

/** Installs what is missing; resolves with 0 when both browsers are there, else an exit code. */
export async function ensureChromium() {
  const missing = PACKAGES.filter((pkg) => !existsSync(pkg.binary));
  if (missing.length === 0) {
    console.log(`${CHROMIUM} and ${CHROMIUM_HEADLESS_SHELL} are installed`);
    return 0;
  }
  const names = missing.map((pkg) => pkg.name).join(' ');
  if (process.getuid?.() !== 0) {
    console.log(
      `${missing.map((pkg) => pkg.binary).join(' and ')} missing, and this user cannot install them.\n` +
        `Install Debian's packages as root:  apt-get update && apt-get install -y ${names}\n` +
        `(Playwright's own browser download does not work here; the tests use the system Chromium.)`,
    );
    return 1;
  }
  console.log(`installing Debian's ${names}`);
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  const updated = await run('apt-get', [...lockWait, 'update']);
  if (updated !== 0) return updated;
  const installed = await run('apt-get', [...lockWait, 'install', '-y', '--no-install-recommends', ...missing.map((pkg) => pkg.name)], {
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = missing.filter((pkg) => !existsSync(pkg.binary));
  if (installed !== 0 || still.length) {
    console.log(`apt-get install ${names} failed; still missing: ${still.map((pkg) => pkg.binary).join(', ') || '(none)'}`);
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

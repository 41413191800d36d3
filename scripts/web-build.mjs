/**
 * Builds the web app (`vite build` into packages/web/dist) and tells whether a build is
 * stale: the newest file among the web app's and the contracts' sources against
 * dist/index.html. Shared by start, test, the e2e global setup and the bench.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './ensure-install.mjs';

export const WEB_DIR = path.join(ROOT, 'packages', 'web');
export const WEB_DIST = path.join(WEB_DIR, 'dist');
const WEB_INDEX = path.join(WEB_DIST, 'index.html');

/** What the built app depends on (the contracts package is imported as TS source). */
const SOURCES = [
  path.join(WEB_DIR, 'src'),
  path.join(WEB_DIR, 'public'),
  path.join(WEB_DIR, 'index.html'),
  path.join(WEB_DIR, 'vite.config.ts'),
  path.join(WEB_DIR, 'package.json'),
  path.join(ROOT, 'packages', 'contracts', 'src'),
  path.join(ROOT, 'package-lock.json'),
];

function newestMtime(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why a build is needed, or null when dist is up to date. */
export function webBuildReason() {
  let built;
  try {
    built = statSync(WEB_INDEX).mtimeMs;
  } catch {
    return 'packages/web/dist is missing';
  }
  const newest = Math.max(...SOURCES.map(newestMtime));
  return newest > built ? 'web sources are newer than packages/web/dist' : null;
}

/** `npm run build -w @portal/web`; returns the exit code (output goes to the terminal). */
export function buildWeb() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '-w', '@portal/web'], { cwd: ROOT, stdio: 'inherit' });
  return result.status ?? 1;
}

/** Builds when stale. Throws when the build fails. */
export function ensureWebBuilt({ force = false, log = console.log } = {}) {
  const reason = force ? 'forced' : webBuildReason();
  if (!reason) {
    log('[web] packages/web/dist is up to date');
    return false;
  }
  log(`[web] building the web app (${reason})`);
  const code = buildWeb();
  if (code !== 0) throw new Error(`web build failed (npm run build -w @portal/web exited ${code})`);
  return true;
}

#!/usr/bin/env node
/**
 * Makes sure node_modules matches package-lock.json before start, test and bench.
 *
 * Fast path: node_modules/.install-stamp holds the SHA-256 of the lockfile the tree was
 * installed from; when it matches, nothing happens (a few milliseconds).
 * Otherwise the installed tree is compared with the lockfile (every non-optional package
 * present at the locked version). A tree that already matches (someone ran `npm install`)
 * just gets a fresh stamp; anything else gets `npm ci`.
 *
 * Plain Node, no dependencies: it runs before any dependency exists.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOCKFILE = path.join(ROOT, 'package-lock.json');
const NODE_MODULES = path.join(ROOT, 'node_modules');
const STAMP = path.join(NODE_MODULES, '.install-stamp');

function lockfileHash() {
  return createHash('sha256').update(readFileSync(LOCKFILE)).digest('hex');
}

function readStamp() {
  try {
    return readFileSync(STAMP, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Packages the lockfile wants but node_modules lacks or holds at another version. */
export function installDrift() {
  const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8'));
  const drift = [];
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (!location.includes('node_modules/')) continue; // the root and the workspaces themselves
    const where = path.join(ROOT, location);
    if (entry.link) {
      if (!existsSync(where)) drift.push(`${location} (workspace link missing)`);
      continue;
    }
    let installed = null;
    try {
      installed = JSON.parse(readFileSync(path.join(where, 'package.json'), 'utf8')).version;
    } catch {
      installed = null;
    }
    if (installed === null) {
      // Optional packages for other platforms are never installed.
      if (!entry.optional) drift.push(`${location} (missing)`);
    } else if (entry.version && installed !== entry.version) {
      drift.push(`${location} (${installed}, locked ${entry.version})`);
    }
  }
  return drift;
}

/** Runs `npm ci` if needed. Returns true when it installed. Throws when npm ci fails. */
export function ensureInstall({ quiet = false } = {}) {
  const log = (message) => quiet || console.log(`[ensure-install] ${message}`);
  const hash = lockfileHash();
  if (existsSync(NODE_MODULES) && readStamp() === hash) return false;

  if (existsSync(NODE_MODULES)) {
    const drift = installDrift();
    if (drift.length === 0) {
      writeFileSync(STAMP, `${hash}\n`);
      log('node_modules already matches package-lock.json; stamp written');
      return false;
    }
    log(`node_modules differs from package-lock.json (${drift.length}): ${drift.slice(0, 5).join(', ')}${drift.length > 5 ? ', ...' : ''}`);
  } else {
    log('node_modules is missing');
  }

  log('running npm ci');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // --prefer-offline: a tarball already in npm's cache (checked against the lock's integrity) is
  // not asked of the registry again; a fresh clone's install took 27-48 s with it, 51-54 s without.
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`npm ci failed (exit ${result.status ?? result.signal})`);
  }
  // npm ci rewrites node_modules, so the stamp goes in after it.
  writeFileSync(STAMP, `${lockfileHash()}\n`);
  log('installed; stamp written');
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureInstall();
  } catch (error) {
    console.error(`[ensure-install] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}

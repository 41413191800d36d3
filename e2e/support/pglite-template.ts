import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE_DIR = path.join(ROOT, '.cache', 'e2e');
const MIGRATIONS = path.join(ROOT, 'packages', 'server', 'src', 'db', 'migrations');
const MAKER = path.join(ROOT, 'e2e', 'support', 'make-pglite-template.ts');
const PGLITE_PACKAGE = path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the template is made from: every migration file, PGlite's version (its data format) and
 * the script that makes it. A run reuses the template these inputs name.
 */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(PGLITE_PACKAGE));
  hash.update(readFileSync(MAKER));
  const files = readdirSync(MIGRATIONS, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(MIGRATIONS, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(path.join(MIGRATIONS, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Templates of other inputs unused for a day go (a run touches the one it uses), and so do
 * half-built ones an interrupted run left an hour ago.
 */
function pruneTemplates(keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(CACHE_DIR)) {
    const dir = path.join(CACHE_DIR, name);
    if (dir === keep || !name.startsWith('pglite-template')) continue;
    const stat = statSync(dir, { throwIfNoEntry: false }); // another run may be removing it
    if (stat && now - stat.mtimeMs > (name.includes('.building-') ? DAY_MS / 24 : DAY_MS)) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A migrated PGlite data directory for the servers of this run to start on copies of, at
 * `.cache/e2e/pglite-template-<key of its inputs>`: made when no run has made it for these
 * migrations yet, else reused. Runs in the same checkout at once never see a half-made one: it
 * is built in a folder of this process and renamed into place; when another run renamed its own
 * first, that one is used and this one removed.
 */
export function ensurePgliteTemplate(log: (message: string) => void): string {
  mkdirSync(CACHE_DIR, { recursive: true }); // .cache/e2e does not exist in a fresh clone
  const template = path.join(CACHE_DIR, `pglite-template-${templateKey()}`);
  pruneTemplates(template);
  if (existsSync(template)) {
    const now = new Date();
    utimesSync(template, now, now);
    log(`reusing the migrated PGlite template ${path.relative(ROOT, template)}`);
    return template;
  }
  const started = Date.now();
  const building = `${template}.building-${process.pid}`;
  makeTemplate(building);
  try {
    renameSync(building, template);
  } catch (error) {
    if (!existsSync(template)) throw error;
    rmSync(building, { recursive: true, force: true }); // another run's template landed first
  }
  log(`migrated the PGlite template ${path.relative(ROOT, template)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return template;
}

/**
 * Runs the maker into `building`, once more if the runtime itself died under it (killed by a
 * signal: V8's fatal "Check failed: jit_page_->allocations_.erase(addr) == 1" aborted it once on
 * Node 24, in a CI run), never after a failed migration (an exit code). PGlite's WebAssembly
 * runs on Liftoff alone, as in the test servers: less compiling, and no optimized code swapped in.
 */
function makeTemplate(building: string): void {
  for (let attempt = 1; ; attempt++) {
    rmSync(building, { recursive: true, force: true });
    try {
      execFileSync(process.execPath, ['--liftoff-only', '--import', 'tsx', MAKER, building], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, LOG_LEVEL: 'silent' },
      });
      return;
    } catch (error) {
      const signal = (error as { signal?: NodeJS.Signals | null }).signal;
      if (!signal || attempt === 2) throw error;
      console.log(`[e2e] the PGlite template's maker died (${signal}), not a migration: made again`);
    }
  }
}

/** This run's template (the global setup publishes it as E2E_PGLITE_TEMPLATE); none against your own server. */
export function pgliteTemplate(): string | undefined {
  return process.env.E2E_PGLITE_TEMPLATE || undefined;
}

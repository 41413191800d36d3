import { execFile } from 'node:child_process';
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The server's entry points that tests run as processes: the server and the operator commands. */
const ENTRIES = ['main', 'organizations-admin', 'oauth-admin', 'operators-admin', 'billing-admin', 'wallet-admin'] as const;
export type ServerEntry = (typeof ENTRIES)[number];

const PGLITE_REMOTE = path.join(ROOT, 'packages', 'server', 'src', 'db', 'pglite-remote.ts');

/**
 * Each source file keeps its own `import.meta.url` (the migrations folder, the first-party
 * clients file and `createRequire` are found from it), not the bundle's. Except db/pglite-remote.ts:
 * it starts PGlite's worker thread from `./pglite-worker.js` beside itself, and from its TypeScript
 * source it would start it through tsx instead (tsx's loader in the worker of every server and
 * operator command: 0.1-0.2 s of CPU each); it gets an address in the bundle's folder, where the
 * worker is bundled as pglite-worker.js.
 */
function ownImportMetaUrl(outDir: string): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]packages[\\/](server|contracts)[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const url = args.path === PGLITE_REMOTE ? pathToFileURL(path.join(outDir, 'pglite-remote.mjs')).href : pathToFileURL(args.path).href;
        return { contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(url)), loader: 'ts' };
      });
    },
  };
}

/**
 * Bundled although they are packages: drizzle-orm's package.json declares some 170 KB of
 * `exports`, and Node (24) parses that map again for every one of its files it loads as an ES
 * module (to read the package's "type"): about a quarter of a server's start. Bundled, the
 * server loads none of its files.
 */
const BUNDLED_PACKAGES = /^drizzle-orm(\/|$)/;

/** Packages stay in node_modules (loaded by Node as they are); our workspace's TypeScript, and BUNDLED_PACKAGES, are bundled. */
const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@portal/') || BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Bundles the server's entry points into a folder of this run under `.cache` (inside the
 * repository, so Node finds node_modules from it; one per run, since runs may overlap) and
 * points `serverCommand` at it (SERVER_BUNDLE_DIR, which the test processes inherit). The
 * same esbuild transform tsx applies file by file, done once per run: a server process then
 * starts without tsx's loader thread, which cost every server and operator command a test
 * starts several seconds of CPU (measured: about 15 s of CPU and 10 s to /readyz through tsx,
 * about 4 s and 5 s from the bundle). Returns the clean-up.
 */
export async function bundleServer(): Promise<() => Promise<void>> {
  const outDir = path.join(ROOT, '.cache', `server-bundle-${process.pid}`);
  await rm(outDir, { recursive: true, force: true });
  await build({
    entryPoints: {
      ...Object.fromEntries(ENTRIES.map((entry) => [entry, path.join(ROOT, 'packages', 'server', 'src', `${entry}.ts`)])),
      'pglite-worker': path.join(ROOT, 'packages', 'server', 'src', 'db', 'pglite-worker.ts'),
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownImportMetaUrl(outDir), packagesExternal],
  });
  // The worker's name as pglite-remote.ts asks for it (an ES module: the repository's package.json says "type": "module").
  await rename(path.join(outDir, 'pglite-worker.mjs'), path.join(outDir, 'pglite-worker.js'));
  process.env.SERVER_BUNDLE_DIR = outDir;
  return async () => {
    delete process.env.SERVER_BUNDLE_DIR;
    await rm(outDir, { recursive: true, force: true });
  };
}

/**
 * V8's arguments for the processes and workers of a test run that open PGlite: its WebAssembly
 * build of PostgreSQL stays on Liftoff, V8's baseline compiler. By default V8 recompiles the
 * functions PostgreSQL runs most (its huge executor functions) with TurboFan in background
 * threads, a few seconds of CPU in every process that opens PGlite; a test's process ends long
 * before that pays back. Measured on the 2-core machine: a portal server's start 7.5 -> 5 CPU-s;
 * two e2e specs with their two servers, the servers' CPU 25.5-28.3 -> 18.4-20.3 s, the PGlite
 * thread's own time unchanged (4.1-4.5 s against 4.3-4.7 s). Tests only: a deployed server keeps
 * V8's defaults, where the optimized code pays back over its life.
 */
export const TEST_V8_ARGS = ['--liftoff-only'];

/**
 * The `node` arguments that run one of the server's entry points (the server, an operator
 * command): from this run's bundle when there is one (SERVER_BUNDLE_DIR), else the source
 * through tsx.
 */
export function serverCommand(entry: ServerEntry): string[] {
  const bundle = process.env.SERVER_BUNDLE_DIR;
  return bundle
    ? [...TEST_V8_ARGS, '--enable-source-maps', path.join(bundle, `${entry}.mjs`)]
    : [...TEST_V8_ARGS, '--import', 'tsx', path.join(ROOT, 'packages', 'server', 'src', `${entry}.ts`)];
}

/**
 * The environment of a server process a test starts: this process's, less what belongs to the
 * test run itself (its database, Redis and SMTP, and vitest's own markers), plus `env`.
 */
export function serverProcessEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'TEST_DB', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete inherited[key];
  return { ...inherited, ...env };
}

/**
 * Runs an operator command (`npm run organizations -- ...`, `npm run clients -- ...`) to its
 * end against the database `env` names (DATA_DIR, never the caller's DATABASE_URL); resolves
 * with what it printed, rejects with what it wrote to stderr. Not blocking this process: a
 * test's own DNS server may have to answer it.
 */
export async function runOperatorCommand(entry: Exclude<ServerEntry, 'main'>, args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [...serverCommand(entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return stdout;
}

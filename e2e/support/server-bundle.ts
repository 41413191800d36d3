import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The server's entry points that e2e runs as processes: the server and the operator commands. */
const ENTRIES = ['main', 'organizations-admin', 'oauth-admin'] as const;
export type ServerEntry = (typeof ENTRIES)[number];

/**
 * Each source file keeps its own `import.meta.url` (the migrations folder, the first-party
 * clients file and `createRequire` are found from it), not the bundle's.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]packages[\\/](server|contracts)[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** Packages stay in node_modules (loaded by Node as they are); only our workspace's TypeScript is bundled. */
const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Bundles the server's entry points into `outDir` (which must sit inside the repository, so
 * Node finds node_modules from it). The same esbuild transform tsx applies file by file, done
 * once per run: a server process then starts without tsx's loader thread, which cost every
 * e2e server and operator command several seconds of CPU (measured: about 15 s of CPU and
 * 10 s to /readyz through tsx, about 4 s and 5 s from the bundle).
 */
export async function bundleServer(root: string, outDir: string): Promise<Record<ServerEntry, string>> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(ENTRIES.map((entry) => [entry, path.join(root, 'packages', 'server', 'src', `${entry}.ts`)])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownImportMetaUrl, packagesExternal],
  });
  return Object.fromEntries(ENTRIES.map((entry) => [entry, path.join(outDir, `${entry}.mjs`)])) as Record<ServerEntry, string>;
}

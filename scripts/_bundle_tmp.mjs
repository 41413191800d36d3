import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
const t0 = Date.now();
const importMetaUrl = {
  name: 'import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\/packages\/(server|contracts)\/src\/.*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};
const external = {
  name: 'external-node-modules',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true }));
  },
};
await build({ entryPoints: ['packages/server/src/main.ts'], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: '.cache/server-bundle/main.mjs', plugins: [importMetaUrl, external], logLevel: 'warning', sourcemap: 'linked' });
console.log('bundled in', Date.now() - t0, 'ms');

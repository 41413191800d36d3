import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

const webRoot = new URL('.', import.meta.url).pathname;

type Contracts = typeof import('@portal/contracts');

/**
 * In production the Node server fills `%BRAND_ID%` and `<!--portal-head-->` per request
 * (brand by Host header, nonce per response). `vite dev` has no such server in front, so
 * this plugin fills them the same way for local work. It never runs in `vite build`: the
 * built index.html keeps both placeholders for the server.
 */
function devHtmlShell(env: Record<string, string>): Plugin {
  return {
    name: 'portal-dev-html-shell',
    apply: 'serve',
    async transformIndexHtml(html, context) {
      // contracts is TypeScript source: load it through the dev server, not Node's loader.
      const contracts = (await context.server!.ssrLoadModule('@portal/contracts')) as Contracts;
      const brandId = contracts.isBrandId(env.PORTAL_DEV_BRAND) ? env.PORTAL_DEV_BRAND : 'platform';
      const brand = contracts.brands[brandId];
      const config: import('@portal/contracts').RuntimeConfig = {
        brand: brandId,
        apiBaseUrl: '/v3',
        vaultUrl: env.PORTAL_DEV_VAULT_URL ?? 'http://localhost:8080/vault',
        mainSiteUrl: 'http://localhost:8080',
        productLinks: {},
        termsUrl: brand.legal.terms,
        privacyUrl: brand.legal.privacy,
        captcha: { provider: 'altcha' },
        dev: true,
        allowedRedirectOrigins: [],
    socialProviders: [],
      };
      const head = [
        `<title>${brand.title}</title>`,
        `<meta name="theme-color" content="${brand.themeColor}" />`,
        `<link rel="icon" href="${brand.favicon}" type="image/svg+xml" />`,
        `<script id="${contracts.RUNTIME_CONFIG_ELEMENT_ID}" type="application/json">${JSON.stringify(config)}</script>`,
      ].join('\n    ');
      return html.replace('%BRAND_ID%', brandId).replace('<!--portal-head-->', head);
    },
  };
}

/**
 * `react-i18next` is the app's own small binding to its translator (src/lib/react-i18n.tsx and
 * src/lib/translator.ts say why): components import it by the package's name and types. The
 * tests resolve it the same way (vitest.config.ts).
 */
const appAliases = [{ find: /^react-i18next$/, replacement: new URL('./src/lib/react-i18n.tsx', import.meta.url).pathname }];

/**
 * Smaller first paint, same behaviour. react-router's package exports point every bundler at
 * its development build (dev warnings, the "Hey developer" error screen); its production build
 * sits beside it. The charts (recharts, react-redux) import the pre-React-18 shim of
 * useSyncExternalStore, which React 19 has built in.
 */
const productionAliases = [
  { find: /^react-router$/, replacement: new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url).pathname },
  { find: /^react-router\/dom$/, replacement: new URL('../../node_modules/react-router/dist/production/dom-export.mjs', import.meta.url).pathname },
  { find: /^use-sync-external-store\/shim$/, replacement: new URL('./src/lib/use-sync-external-store.ts', import.meta.url).pathname },
];

/**
 * react-router's single module declares every component as `var X = forwardRef(...)` followed by
 * `X.displayName = "X"`: statements the bundler must keep, so every component it exports
 * (NavLink, Form, their submit helpers) stays in the entry chunk whether the app uses it or not.
 * Marking the calls pure and dropping the name assignments lets tree-shaking remove the unused ones.
 * `<Link prefetch>` needs framework mode's route manifest, which a data router does not have: the
 * app prefetches route chunks itself (lib/link-prefetch.ts), so Link's prefetch machinery
 * (~1.5 KB gzipped) is cut. The app renders with the declarative router (app/RootRoute.tsx, which
 * has its own error boundary), so the data router's per-route error boundary and default error
 * screen, which `useRoutes` keeps referenced for data routers only, are cut too (~0.9 KB Brotli
 * of the sign-in page): a data router in a build would render no errorElement. Each patch must
 * match, so a react-router upgrade that changes the code fails the build instead of silently
 * shipping it whole.
 */
function reactRouterTreeShaking(): Plugin {
  const patches: Array<[RegExp, string]> = [
    [/^\s*[A-Za-z0-9_$]+\.displayName = "[^"]*";$/gm, ''],
    [/= (React\d*)\.forwardRef\(/g, '= /* @__PURE__ */ $1.forwardRef('],
    [/= (React\d*)\.createContext\(/g, '= /* @__PURE__ */ $1.createContext('],
    [/usePrefetchBehavior\(\s*prefetch,\s*rest\s*\)/g, '[false, null, {}]'],
    [/return shouldPrefetch && !isAbsolute \? [^\n]*PrefetchPageLinks[^\n]* : link;/g, 'return link;'],
    [/^RenderErrorBoundary\.contextType = RSCRouterContext;$/gm, ''],
    [/errorElement = match\.route\.errorElement \|\| defaultErrorElement;/g, 'errorElement = match.route.errorElement || null;'],
    [/return dataRouterState && \(match\.route\.ErrorBoundary \|\| match\.route\.errorElement \|\| index === 0\) \? [^;]*?RenderErrorBoundary,[\s\S]*?\) : getChildren\(\);/g, 'return getChildren();'],
  ];
  return {
    name: 'portal-react-router-tree-shaking',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[^/\\]+\.mjs$/.test(id) || !code.includes('function LinkWithRef')) return null;
      let patched = code;
      for (const [pattern, replacement] of patches) {
        if (!pattern.test(patched)) throw new Error(`react-router patch no longer applies (${pattern}): review vite.config.ts after the upgrade`);
        pattern.lastIndex = 0;
        patched = patched.replace(pattern, replacement);
      }
      return { code: patched, map: null };
    },
  };
}

/**
 * Text files of the build get a Brotli (.br) and a gzip (.gz) copy beside them, compressed once
 * at build time at the highest levels; the server's static plugin (`preCompressed`) sends the one
 * the browser accepts. Without it every script went out uncompressed: a slow phone link carried
 * about three times the bytes of the sign-in page. index.html is a template the server fills per
 * request (it sends it itself), and the manifest is for the server and the bench: both skipped.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = '';
  let ssr = false;
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = !!config.build.ssr;
    },
    async closeBundle() {
      // The server-side build of the first screen (dist/.ssr) is for the server, never sent.
      if (ssr) return;
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && /\.(js|mjs|css|svg|json|webmanifest|txt)$/.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => !path.relative(outDir, file).startsWith('.vite'));
      await Promise.all(
        files.map(async (file) => {
          const source = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gz(source, { level: 9 }),
          ]);
          // Small files count too (the sign-in page loads several stylesheets and scripts under
          // 1 KB): a copy is kept whenever it is smaller than the file, which the server then sends.
          await Promise.all([
            br.length < source.length ? writeFile(`${file}.br`, br) : undefined,
            gzipped.length < source.length ? writeFile(`${file}.gz`, gzipped) : undefined,
          ]);
        }),
      );
    },
  };
}

export default defineConfig(({ mode, command, isSsrBuild }) => {
  const env = loadEnv(mode, webRoot, 'PORTAL_DEV_');
  const apiOrigin = env.PORTAL_DEV_API_ORIGIN ?? 'http://localhost:8080';
  return {
    root: webRoot,
    plugins: [react(), devHtmlShell(env), reactRouterTreeShaking(), precompress()],
    resolve: { alias: command === 'build' ? [...appAliases, ...productionAliases] : appAliases },
    // The server-side bundle of the first screen carries its dependencies, so it runs from any copy of dist.
    ssr: { noExternal: true },
    // The API lives on the Node server; the dev server forwards to it.
    server: { proxy: { '/v3': apiOrigin } },
    build: {
      outDir: 'dist',
      // The server-side build (first-screen.tsx into dist/.ssr) needs no copy of public/.
      copyPublicDir: !isSsrBuild,
      emptyOutDir: true,
      target: 'es2022',
      // dist/.vite/manifest.json maps routes to chunks: for size checks and for preload hints.
      manifest: !isSsrBuild,
      // Every browser the app supports has <link rel=modulepreload>; skip the polyfill. A lazy
      // chunk's own imports are left for the browser to find in it (one round trip later), not
      // listed in the entry for every lazy import: that list of file names was 3.6 KB of the
      // sign-in page's 150 KB gzipped (151.2 -> 147.6 KB). Its stylesheets stay listed (nothing
      // else loads them), and link prefetch (lib/link-prefetch.ts) has fetched the code of the
      // pages a page links to, imports and all, by the time a visitor follows a link.
      modulePreload: { polyfill: false, resolveDependencies: (_file, deps) => deps.filter((dep) => dep.endsWith('.css')) },
      rolldownOptions: {
        // contracts is plain declarations (its package.json has no `sideEffects` hint): let
        // the bundle drop the modules the web app does not use, zod schemas above all.
        treeshake: { moduleSideEffects: [{ test: /\/packages\/contracts\/src\//, sideEffects: false }] },
        output: {
          codeSplitting: {
            groups: [
              // Everything the entry loads statically, in the entry chunk: otherwise modules the
              // lazy pages share with it (React, Mantine's core, i18next, the API client) come as
              // a dozen small chunks on the sign-in page's critical path (~3.5 KB more gzipped).
              { name: 'shell', tags: ['$initial'] },
              // The public pages' form pieces (the first sign-in step uses all of them) as one chunk,
              // with the few lines that tell whether the browser has passkeys (not a chunk of their own).
              // The code input (Mantine's PinInput), its checker and the send-a-code button are for later steps: left to the pages that show them.
              // The sign-in hand-off and the deletion-refusal check (the passkey button uses both) ride along, not as a chunk of their own.
              {
                name: 'forms',
                test: /[\\/]src[\\/](components[\\/](form[\\/](?!OtpInput|use-code-check|SendCodeButton)|PageHeader|passkey[\\/]support)|features[\\/]auth[\\/](LightField|deletion-pending|api\.ts)|lib[\\/](use-form|validators|flow-storage|sign-in))/,
              },
            ],
          },
        },
      },
    },
  };
});

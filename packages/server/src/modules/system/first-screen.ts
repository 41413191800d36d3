import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AUTH_COOKIE_NAME, entryParams, type Language, type RuntimeConfig } from '@portal/contracts';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FirstScreen } from '../../platform/html-shell';
import { pruneUnusedCssVariables } from './css-variables';

/** What the web build's server-side bundle (`dist/.ssr/first-screen.js`, from packages/web/src/first-screen.tsx) exports. */
interface FirstScreenModule {
  renderFirstScreen(config: RuntimeConfig, language: Language): string;
}

/** The route whose first screen is rendered here, and the page module that shows it. */
const PAGE = '/login';
const PAGE_MODULE = 'src/features/auth/LoginPage.tsx';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** The page chunk's stylesheets and scripts, and those of the chunks it imports, beyond the entry's. */
async function pageFiles(webDist: string): Promise<{ styles: string[]; scripts: string[] }> {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(await readFile(path.join(webDist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return { styles: [], scripts: [] };
  }
  const seen = new Set<string>(['index.html']);
  const scripts: string[] = [];
  const styles: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    const chunk = manifest[key];
    scripts.push(`/${chunk.file}`);
    styles.push(...(chunk.css ?? []).map((file) => `/${file}`));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(PAGE_MODULE);
  return { styles, scripts };
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const ENTRY_STYLESHEET = /<link rel="stylesheet" crossorigin href="([^"]+)">\n?\s*/g;

/**
 * The shell for pages that carry the first screen. The page paints from the HTML and the
 * page chunk's small stylesheets: the entry's stylesheet is inlined, and the
 * app's scripts are asked for only after that paint (a module script waits a frame, then
 * preloads the page's chunks and imports the entry), so they do not share the slow link with
 * the first paint. Also every stylesheet's text the screen uses (what reads Mantine's
 * variables). Undefined when the template is not the build's shape.
 */
async function firstScreenTemplate(template: string, webDist: string): Promise<{ shell: string; stylesheets: string } | undefined> {
  const entry = ENTRY_SCRIPT.exec(template);
  if (!entry) return undefined;
  const page = await pageFiles(webDist);
  const stylesheets = [...template.matchAll(ENTRY_STYLESHEET)].map((match) => match[1]!);
  const css = await Promise.all(stylesheets.map((href) => readFile(path.join(webDist, href), 'utf8')));
  // The page chunk's stylesheets stay links: the live page's chunk loader finds them there and
  // does not fetch them again (inlined, they were sent twice). They are small and load in
  // parallel with the document's own paint.
  const pageLinks = page.styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join('\n    ');
  const pageCss = await Promise.all(page.styles.map((href) => readFile(path.join(webDist, href), 'utf8')));
  if (css.some((text) => /<\/style/i.test(text))) return undefined;
  const loader = [
    '<script type="module">',
    'requestAnimationFrame(() => setTimeout(() => {',
    `  for (const href of ${JSON.stringify(page.scripts)}) document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));`,
    `  import(${JSON.stringify(entry[1])});`,
    '}));',
    '</script>',
  ].join('\n');
  // The entry's stylesheets stay named by disabled links, which the browser does not fetch: the
  // chunk loader looks for a stylesheet among the document's links before loading it with a lazy
  // chunk. Not finding them, it fetched them a second time and appended them after the page's
  // component stylesheets, whose rules they then overrode (UnstyledButton's transparent
  // background over Button's fill on the second sign-in step).
  const entryLinks = stylesheets.map((href) => `<link rel="stylesheet" crossorigin href="${href}" disabled>`).join('\n    ');
  const shell = template.replace(ENTRY_STYLESHEET, '').replace(entry[0], () => `${entryLinks}\n    <style>\n${css.join('\n')}\n</style>\n    ${pageLinks}\n    ${loader}`);
  return { shell, stylesheets: [...css, ...pageCss].join('\n') };
}

/**
 * The sign-in page's first screen for the HTML shell: the markup the web app renders for
 * `/login` (signed out, no query), painted before the app's JavaScript arrives. Rendered once
 * per brand and language with the runtime config the shell carries, then kept. Only for a
 * plain `/login` without a session cookie or entry cookies (which change what the page shows);
 * every other page, and a build without the server-side bundle, gets the empty shell.
 */
export async function createFirstScreens(template: string | null, webDist: string, log: FastifyBaseLogger) {
  const bundle = path.join(webDist, '.ssr', 'first-screen.js');
  if (!template || !existsSync(bundle)) return { forRequest: () => undefined, warm: async () => undefined };
  const shape = await firstScreenTemplate(template, webDist);
  if (!shape) return { forRequest: () => undefined, warm: async () => undefined };
  const { shell, stylesheets } = shape;
  let module: FirstScreenModule | undefined;
  let failed = false;
  const rendered = new Map<string, FirstScreen>();

  const load = async () => {
    if (module || failed) return;
    try {
      module = (await import(pathToFileURL(bundle).href)) as FirstScreenModule;
    } catch (error) {
      failed = true;
      log.warn({ err: error }, 'first screen bundle did not load: pages go without it');
    }
  };

  const render = (runtime: RuntimeConfig, language: Language): FirstScreen | undefined => {
    if (!module) return undefined;
    const key = `${runtime.brand}:${language}`;
    let screen = rendered.get(key);
    if (!screen) {
      try {
        // The screen's stylesheets are what reads Mantine's variables (with the markup).
        screen = { template: shell, body: pruneUnusedCssVariables(module.renderFirstScreen(runtime, language), stylesheets) };
      } catch (error) {
        failed = true;
        module = undefined;
        log.warn({ err: error }, 'first screen did not render: pages go without it');
        return undefined;
      }
      rendered.set(key, screen);
    }
    return screen;
  };

  return {
    /** Loads the bundle and renders every brand's screens once (production does at start-up; elsewhere each is rendered on first use). */
    async warm(runtimes: RuntimeConfig[], languages: readonly Language[]): Promise<void> {
      await load();
      for (const runtime of runtimes) for (const language of languages) render(runtime, language);
    },
    forRequest(request: FastifyRequest, runtime: RuntimeConfig, language: Language): FirstScreen | undefined {
      if (request.url !== PAGE) return undefined;
      const cookies = request.headers.cookie ?? '';
      const names = cookies.split(';').map((pair) => pair.split('=')[0]!.trim());
      if (names.some((name) => name.endsWith(AUTH_COOKIE_NAME) || (entryParams as readonly string[]).includes(name))) return undefined;
      // Not warmed (outside production): the first such request starts loading the bundle and goes without.
      if (!module && !failed) void load();
      return render(runtime, language);
    },
  };
}

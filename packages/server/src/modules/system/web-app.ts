import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { brands, isPagePath, languages, safeRedirect } from '@portal/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { allowedRedirectOrigins, brandForHost, runtimeConfigFor } from '../../platform/brand';
import { languageFor } from '../../platform/geo';
import { PAGE_HEADERS } from '../../platform/security-headers';
import { loadShellTemplate, newNonce, pageCsp, renderShell, type ThirdPartySources } from '../../platform/html-shell';
import { createFirstScreens } from './first-screen';

const API_PREFIX = '/v3/';

function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (request.url.startsWith(API_PREFIX) || request.url === '/v3') return false;
  // Missing files (a stale /assets/x.js) must 404, not get the HTML shell.
  return !path.extname(request.url.split('?')[0] ?? '');
}

/**
 * Whether the page keeps its opener: only the password manager's first sign-in step, opened by
 * a login client that names its own origin in `?origin=` among those a sign-in may return to
 * (the one page and origin the on-premise discovery result is posted to: lib/onpremise in the
 * web app). Every other page, and this one opened by anyone else, stays isolated.
 */
function keepsOpener(request: FastifyRequest, brandId: string, openerOrigins: readonly string[], ownOrigin: string): boolean {
  const [pathname, query = ''] = request.url.split('?', 2);
  if (brandId !== 'locker' || pathname !== '/login') return false;
  const named = safeRedirect(new URLSearchParams(query).get('origin'), openerOrigins, ownOrigin);
  return named !== null && !named.startsWith('/');
}

/** What the page's CSP must allow beyond our origin: the API hosts, reCAPTCHA when chosen, Stripe.js when Stripe is the processor, Chatwoot when configured. */
function thirdPartySources(config: Config): ThirdPartySources {
  const sources: ThirdPartySources = { script: [], frame: [], connect: [] };
  // The brands' API bases: the password-manager brand's pages call their own API host.
  for (const base of [config.PLATFORM_API_BASE_URL, config.LOCKER_API_BASE_URL]) {
    if (/^https?:\/\//.test(base)) sources.connect.push(new URL(base).origin);
  }
  if (config.CAPTCHA_PROVIDER === 'recaptcha') {
    sources.script.push('https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/');
    sources.frame.push('https://www.google.com', 'https://recaptcha.google.com');
    sources.connect.push('https://www.google.com/recaptcha/');
  }
  if (config.PAYMENTS_PROCESSOR === 'stripe') {
    // Stripe.js and its Payment Element (billing's add-card form) as Stripe documents its CSP.
    sources.script.push('https://js.stripe.com');
    sources.frame.push('https://js.stripe.com', 'https://hooks.stripe.com');
    sources.connect.push('https://api.stripe.com');
  }
  if (config.CHATWOOT_BASE_URL) {
    const chatwoot = new URL(config.CHATWOOT_BASE_URL).origin;
    sources.script.push(chatwoot);
    sources.frame.push(chatwoot);
    sources.connect.push(chatwoot, chatwoot.replace(/^http/, 'ws'));
  }
  return sources;
}

/**
 * The files of the build a browser may ask for, by URL path: not the shell's template, the
 * first screen's server-side bundle or the build manifest (the server's own), nor the .br and
 * .gz copies (sent for their file's path by Accept-Encoding).
 */
function publicFilesOf(webDist: string): ReadonlySet<string> {
  const files = new Set<string>();
  let entries: Dirent[];
  try {
    entries = readdirSync(webDist, { recursive: true, withFileTypes: true });
  } catch {
    return files; // not built: every page answers 503 (sendShell)
  }
  for (const entry of entries) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    const file = path.relative(webDist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (file === 'index.html' || file.startsWith('.ssr/') || file.startsWith('.vite/')) continue;
    files.add(`/${file}`);
  }
  return files;
}

/** Shells above this size (those carrying a first screen, ~34 KB) go compressed when the browser accepts it. */
const COMPRESS_SHELL_ABOVE = 4096;

/** The codings an Accept-Encoding header accepts: those it names without `q=0` (`*` stands for any). */
function acceptedCodings(header: string | string[] | undefined): (coding: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of String(header ?? '').toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (name) weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  return (coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
}

/**
 * The shell in Brotli (fast quality: it is made per response, for its nonce) or gzip when the
 * browser accepts either, with `Vary: Accept-Encoding`; as it is otherwise.
 */
function compressed(request: FastifyRequest, reply: FastifyReply, html: string): string | Buffer {
  reply.header('vary', 'Accept-Encoding');
  if (Buffer.byteLength(html) < COMPRESS_SHELL_ABOVE) return html;
  const accepts = acceptedCodings(request.headers['accept-encoding']);
  if (accepts('br')) {
    reply.header('content-encoding', 'br');
    return brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
  }
  if (accepts('gzip')) {
    reply.header('content-encoding', 'gzip');
    return gzipSync(html, { level: 6 });
  }
  return html;
}

/**
 * Serves the built React app: hashed assets with long caching, Brotli or gzip copies made at build time, and for every page path the
 * HTML shell filled with the request's brand and a fresh CSP nonce. Unknown `/v3` paths and
 * missing files answer the API's 404 shape.
 */
export async function installWebApp(app: FastifyInstance, config: Config, webDist: string): Promise<void> {
  const template = await loadShellTemplate(webDist);
  const thirdParty = thirdPartySources(config);
  const openerOrigins = allowedRedirectOrigins(config);
  // The sign-in page's markup, painted before the app's JavaScript arrives (first-screen.ts).
  const firstScreens = await createFirstScreens(template, webDist, app.log);
  // In production rendered once the server is up, off its start-up path (until then /login goes
  // without); elsewhere on first use, so test servers that never open /login pay nothing.
  if (config.NODE_ENV === 'production') {
    app.addHook('onReady', () => {
      setImmediate(() => void firstScreens.warm(Object.values(brands).map((brand) => runtimeConfigFor(config, brand)), languages));
    });
  }

  const sendShell = (request: FastifyRequest, reply: FastifyReply) => {
    if (!template) return reply.status(503).type('text/plain').send('The web app is not built. Run `npm start`.');
    const brand = brandForHost(config, request.hostname);
    const nonce = newNonce();
    // The visitor's language rides along (the shell is per request and never cached), so the first paint need not ask for it.
    const runtime = { ...runtimeConfigFor(config, brand), language: languageFor(request.ip, request.headers['accept-language']) };
    // Unknown pages still get the app (it shows the not-found page), with the right status.
    const status = isPagePath(request.url.split('?')[0] ?? '/') ? 200 : 404;
    return reply
      .status(status)
      .headers(PAGE_HEADERS)
      // The password manager's first sign-in step, opened by a login client that named an allowed
      // origin, posts it the on-premise discovery result: that one document keeps its opener.
      .header('cross-origin-opener-policy', keepsOpener(request, brand.id, openerOrigins, config.LOCKER_ORIGIN) ? 'unsafe-none' : PAGE_HEADERS['cross-origin-opener-policy'])
      .header('content-security-policy', pageCsp(nonce, thirdParty))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(compressed(request, reply, renderShell(template, brand, runtime, nonce, firstScreens.forRequest(request, runtime, runtime.language!))));
  };

  await app.register(fastifyStatic, {
    root: webDist,
    // Sent by the route below, for the files of the build only (no route of the plugin's own).
    serve: false,
    // The build writes .br and .gz beside each text file (vite.config.ts): sent by Accept-Encoding, with Vary.
    preCompressed: true,
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  // The build's public files, listed once at start (the build comes before the server: npm
  // start, the tests), and a path is served only when it is one of them, spelled exactly.
  // The plugin's own wildcard route reads each folder of the path on every request to refuse
  // another spelling of a name (case-folding file systems): an asset cost 2.0 ms of CPU
  // instead of 0.75 (assets/ holds ~800 files). Its route per file (`wildcard: false`) globbed
  // the build for each app, 60–100 ms where this listing takes 4.
  const publicFiles = publicFilesOf(webDist);
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const [pathname = ''] = request.url.split('?', 1);
    return publicFiles.has(pathname) ? reply.sendFile(pathname.slice(1)) : reply.callNotFound();
  });

  // The home page: the shell (the files' route above would ask the not-found handler for it).
  app.get('/', { schema: { hide: true } }, sendShell);

  app.setNotFoundHandler((request, reply) => {
    if (wantsPage(request)) return sendShell(request, reply);
    return reply.status(404).send({ code: 'not_found', message: 'Resource not found' });
  });
}

import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CSP_NONCE_META, RUNTIME_CONFIG_ELEMENT_ID, type Brand, type RuntimeConfig } from '@portal/contracts';

/** Characters that would let JSON break out of a <script> element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** A page's first screen rendered on the server (see modules/system/first-screen.ts): its own shell template, and markup for the root. */
export interface FirstScreen {
  template: string;
  body: string;
}

/**
 * The SPA's index.html, filled per request with the brand's title, theme colour, favicon,
 * the runtime config and the CSP nonce, so the right brand shows before any script runs;
 * with `firstScreen`, its template and the page's markup. Every `<script>`, `<style>` and stylesheet or
 * module link gets the nonce.
 */
export function renderShell(template: string, brand: Brand, runtime: RuntimeConfig, nonce: string, firstScreen?: FirstScreen): string {
  const head = [
    `<title>${escapeAttribute(brand.title)}</title>`,
    `<meta name="theme-color" content="${brand.themeColor}">`,
    `<link rel="icon" type="image/svg+xml" href="${brand.favicon}">`,
    `<meta name="${CSP_NONCE_META}" content="${nonce}">`,
    `<script id="${RUNTIME_CONFIG_ELEMENT_ID}" type="application/json" nonce="${nonce}">${jsonForScript(runtime)}</script>`,
  ].join('\n    ');
  return (firstScreen?.template ?? template)
    .replace('<!--portal-head-->', head)
    .replace('<div id="root"></div>', () => `<div id="root">${firstScreen?.body ?? ''}</div>`)
    .replace(/%BRAND_ID%/g, brand.id)
    .replace(/<(script|style)(?![^>]*\snonce=)/g, `<$1 nonce="${nonce}"`)
    .replace(/<link rel="(stylesheet|modulepreload)"(?![^>]*\snonce=)/g, `<link rel="$1" nonce="${nonce}"`);
}

/** Hosts beyond our own that a page may load from: the captcha provider, the support chat. */
export interface ThirdPartySources {
  script: string[];
  frame: string[];
  connect: string[];
}

/** The Content-Security-Policy for an HTML page carrying `nonce`. */
export function pageCsp(nonce: string, extra: ThirdPartySources = { script: [], frame: [], connect: [] }): string {
  const list = (items: string[]) => (items.length ? ` ${items.join(' ')}` : '');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${list(extra.script)}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${list(extra.connect)}`,
    "worker-src 'self' blob:",
    `frame-src 'self'${list(extra.frame)}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** Reads index.html from the built web app once; null when the app is not built. */
export async function loadShellTemplate(webDist: string): Promise<string | null> {
  try {
    return await readFile(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

import { randomBytes } from 'node:crypto';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

export interface SimplePage {
  html: string;
  csp: string;
}

/**
 * The provider's own small pages (an authorization error, the sign-out question, a device
 * sign-in finished): server-rendered, no script, styles by nonce, never framed. `body` is
 * trusted markup (the provider's form); `title` and `message` are escaped here. `formTargets`
 * are origins (scheme, host and port only) the caller has validated.
 */
export function simplePage(title: string, message: string, body = '', options: { formTargets?: readonly string[] } = {}): SimplePage {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#f5f7fb;color:#1f2937;margin:0}main{max-width:420px;margin:12vh auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px rgba(0,0,0,.08)}h1{font-size:1.3rem;margin:0 0 12px}p{line-height:1.5}button{font:inherit;padding:10px 16px;border-radius:8px;border:0;margin:8px 8px 0 0;cursor:pointer}button[value=yes]{background:#1D4ED8;color:#fff}a{color:#1D4ED8}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${body}<p><a href="/">Back to the home page</a></p></main></body></html>`;
  // `formTargets`: origins a form's answer may redirect to (the sign-out page's app); 'self' alone elsewhere.
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ');
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
  return { html, csp };
}

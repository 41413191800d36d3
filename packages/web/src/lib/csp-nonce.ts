import { CSP_NONCE_META } from '@portal/contracts';

/** The per-response CSP nonce the server puts in `<meta name="csp-nonce" content="...">`. */
export function readCspNonce(doc: Document = document): string | undefined {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${CSP_NONCE_META}"]`)?.content || undefined;
}

/**
 * Vite's preload helper adds a nonce to the `<link rel=stylesheet|modulepreload>` tags it
 * inserts for lazy chunks, but reads it from `<meta property="csp-nonce" nonce>`; without
 * it a lazy page's CSS would be blocked by the strict CSP. Bridge our meta to Vite's.
 */
export function exposeNonceToVitePreload(nonce: string | undefined, doc: Document = document): void {
  if (!nonce || doc.querySelector('meta[property="csp-nonce"]')) return;
  const meta = doc.createElement('meta');
  meta.setAttribute('property', 'csp-nonce');
  meta.setAttribute('nonce', nonce);
  doc.head.append(meta);
}

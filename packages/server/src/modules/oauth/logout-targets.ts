import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Where the sign-out page's form may end up besides our own origin: the app's post-logout
 * redirect URI, which the provider checked against the app's registered ones before it
 * rendered the page. The form posts to our own confirm endpoint, which answers 303 to that
 * URI, and a CSP `form-action` is enforced on the redirects a form submission follows too:
 * without its origin the browser stops on our page. Only an http(s) origin is named (a
 * private-use scheme goes through our own /callback-app), so nothing else joins the policy.
 */
export function logoutFormTargets(ctx: KoaContextWithOIDC): string[] {
  const target = ctx.oidc.params?.post_logout_redirect_uri;
  if (typeof target !== 'string' || !ctx.oidc.client?.postLogoutRedirectUriAllowed(target)) return [];
  try {
    const { protocol, origin } = new URL(target);
    return protocol === 'https:' || protocol === 'http:' ? [origin] : [];
  } catch {
    return [];
  }
}

/**
 * The policy of the sign-out answer to a browser that has no provider session: oidc-provider
 * answers a form that posts itself by an inline script (no question: nobody to sign out), and
 * adds that script's hash to `script-src` only when the policy has the directive. Set before
 * the provider answers; `'strict-dynamic'` alone allows nothing until the hash joins it.
 */
export const SELF_POSTING_LOGOUT_CSP = "default-src 'none'; script-src 'strict-dynamic'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** `csp` with `targets` added to its form-action directive (the self-posting sign-out form's redirect, after the provider checked it). */
export function withFormTargets(csp: string, targets: readonly string[]): string {
  if (targets.length === 0) return csp;
  return csp.replace(/(^|;\s*)form-action ([^;]*)/, (_whole, start: string, sources: string) => `${start}form-action ${sources} ${targets.join(' ')}`);
}

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

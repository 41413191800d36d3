import { productEndpoints, safeRedirect, type FieldError } from '@portal/contracts';
import { ApiError, call, fieldErrors } from './api';

type OnPremiseResult = productEndpoints.OnPremiseResult;

/** The on-premise result the sign-in went on with, for the on-premise pages and a reload (this tab only). */
export const ON_PREMISE_STORAGE_KEY = 'portal.onpremise';

/**
 * What the first sign-in step does after on-premise discovery (the spec's state rules):
 * - `none`: not an enterprise user of an on-premise deployment (or the lookup failed): sign-in goes on here;
 * - `inactive`: the organization's deployment is not activated;
 * - `redirect`: the browser is on its way to the deployment's login page;
 * - `field`: the server refused the email (its field error is shown on the identifier).
 */
export type OnPremiseOutcome =
  | { kind: 'none' }
  | { kind: 'inactive'; result: OnPremiseResult }
  | { kind: 'redirect'; result: OnPremiseResult; url: string }
  | { kind: 'field'; error: FieldError };

/** The deployment's login page with the email filled in. */
export function onPremiseLoginUrl(result: Pick<OnPremiseResult, 'login_url' | 'email'>): string {
  const url = new URL(result.login_url);
  url.searchParams.set('email', result.email);
  return url.toString();
}

/** The query parameter by which the window that opens the sign-in names its own origin. */
export const OPENER_ORIGIN_PARAM = 'origin';

/**
 * The origin the discovery result may be posted to: the one `?origin=` names, when it is this
 * site or one a sign-in may return to (RuntimeConfig.allowedRedirectOrigins: the products'
 * configured origins). Anything else is null, and the result stays in this window: an opener
 * never named, or named wrongly, is never sent an organization's server and email.
 */
export function onPremiseOpenerOrigin(search: string, allowedOrigins: readonly string[], currentOrigin: string): string | null {
  const named = new URLSearchParams(search).get(OPENER_ORIGIN_PARAM);
  const safe = safeRedirect(named, allowedOrigins, currentOrigin);
  if (!safe || safe.startsWith('/')) return null;
  return new URL(safe).origin;
}

/** The result for this email (the one of its organization), else the first. */
function matching(results: OnPremiseResult[], email: string): OnPremiseResult | undefined {
  const lower = email.trim().toLowerCase();
  return results.find((result) => result.email.toLowerCase() === lower) ?? results[0];
}

/**
 * Asks POST /{product}_platform/pm/users/onpremise/prelogin about an email and acts on the
 * answer: an activated deployment's result is stored in this tab, the window that opened the
 * page (a login client) receives `{ type: 'onpremise', result }` at `openerOrigin` only (never
 * '*': see onPremiseOpenerOrigin), and the browser goes to the deployment's login page. Discovery never blocks the sign-in here:
 * a failure other than a refused email goes on as "none".
 */
export async function discoverOnPremise(
  email: string,
  language: string,
  options: { product?: string; go?: (url: string) => void; opener?: Pick<Window, 'postMessage'> | null; openerOrigin?: string | null } = {},
): Promise<OnPremiseOutcome> {
  let results: OnPremiseResult[];
  try {
    results = await call(productEndpoints.onPremisePrelogin, { params: { product: options.product ?? 'locker' }, body: { email, language } }, { handle: 'all' });
  } catch (error) {
    const field = error instanceof ApiError && error.status === 400 ? fieldErrors(error).email : undefined;
    return field ? { kind: 'field', error: field } : { kind: 'none' };
  }
  const result = matching(results, email);
  if (!result) return { kind: 'none' };
  if (!result.activated) return { kind: 'inactive', result };
  const url = onPremiseLoginUrl(result);
  try {
    sessionStorage.setItem(ON_PREMISE_STORAGE_KEY, JSON.stringify(result));
  } catch {
    // storage off: the on-premise page still gets the email in its URL
  }
  const opener = options.opener === undefined ? (window.opener as Window | null) : options.opener;
  try {
    if (options.openerOrigin) opener?.postMessage({ type: 'onpremise', result }, options.openerOrigin);
  } catch {
    // an opener that went away
  }
  (options.go ?? ((target: string) => location.assign(target)))(url);
  return { kind: 'redirect', result, url };
}

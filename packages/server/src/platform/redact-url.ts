import { paths } from '@portal/contracts';

/**
 * Which parts of a request's URL a log line may keep. Path parameters are redacted unless
 * their name says they only name a thing (a card's id, an organization, a provider): a new
 * route's `{token}` is redacted without anyone listing it. Query values are redacted by name.
 */
const CENSOR = '[redacted]';

/** Path parameters of the routes (`/v3` declarations and the server's own) that name things, never prove anything. */
export const LOGGED_PATH_PARAMS: ReadonlySet<string> = new Set([
  'id',
  'organizationId',
  'domain',
  'website_id',
  'moderator_id',
  'client_id',
  'provider',
  'reward_id',
  'product',
  'currency',
  'identifier',
  'username',
]);

/** Query names whose values are secrets or one-time codes (OAuth, SAML, device and hand-off codes, link tokens). */
export const SECRET_QUERY_NAME = /token|code|secret|password|passwd|key|ticket|handoff|state|otp|assertion|saml|signature|hint|interaction|request|nonce|verifier|session/i;

/** A page parameter kept in logs: every other one in the web's route table is a mailed link's token. */
const LOGGED_PAGE_PARAMS = new Set(['username']);

/** The pages whose paths carry a parameter, as their fixed leading segments and what follows them. */
const pageParamRoutes = Object.values(paths)
  .map((pattern) => pattern.split('/').filter(Boolean))
  .filter((segments) => segments.some((segment) => segment.startsWith(':')))
  .map((segments) => {
    const first = segments.findIndex((segment) => segment.startsWith(':'));
    return { fixed: segments.slice(0, first), params: segments.slice(first).map((segment) => segment.replace(/^:|\?$/g, '')) };
  })
  // The longest fixed part first: /confirmation/app/x is the app's confirmation, not /confirmation/:token.
  .sort((a, b) => b.fixed.length - a.fixed.length);
const staticPages: ReadonlySet<string> = new Set(Object.values(paths).filter((pattern) => !pattern.includes(':')));

/**
 * A page path with its link tokens masked: the segments after a parameterised page's fixed
 * part are its parameters (anything past them too, so /reset-pwd/<token>/x never leaks).
 */
function maskPagePath(path: string): string {
  if (staticPages.has(path) || path === '/') return path;
  const segments = path.split('/').filter(Boolean);
  const page = pageParamRoutes.find(({ fixed }) => fixed.length < segments.length && fixed.every((segment, index) => segments[index] === segment));
  if (!page) return path;
  const rest = segments.slice(page.fixed.length).map((segment, index) => (LOGGED_PAGE_PARAMS.has(page.params[index] ?? '') ? segment : CENSOR));
  return `/${[...page.fixed, ...rest].join('/')}${path.endsWith('/') ? '/' : ''}`;
}

/** `/v3/x/:id(^re)_y/:token` with its values: identifiers kept, every other parameter masked. */
function pathFromPattern(pattern: string, params: Record<string, unknown>): string {
  return pattern.replace(/:(\w+)(\([^)]*\))?/g, (_whole, name: string) =>
    LOGGED_PATH_PARAMS.has(name) && typeof params[name] === 'string' ? encodeURIComponent(params[name]) : CENSOR,
  );
}

/** The route Fastify matched: its pattern (`routeOptions.url`) and the parameters it read. */
export interface MatchedRoute {
  pattern?: string;
  params?: unknown;
}

/**
 * A request URL as a log line may carry it. A matched route's path is rebuilt from its
 * pattern; a wildcard's or an unmatched one (the web app's pages) is masked by the web's route
 * table. Secret query values are replaced, the rest kept.
 */
export function redactUrl(raw: string, route: MatchedRoute = {}): string {
  const queryAt = raw.indexOf('?');
  const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const { pattern } = route;
  const maskedPath =
    !pattern || pattern.includes('*')
      ? maskPagePath(path)
      : pattern.includes(':')
        ? pathFromPattern(pattern, route.params && typeof route.params === 'object' ? (route.params as Record<string, unknown>) : {})
        : path;
  if (queryAt === -1) return maskedPath;
  const params = new URLSearchParams(raw.slice(queryAt + 1));
  for (const key of new Set(params.keys())) if (SECRET_QUERY_NAME.test(key)) params.set(key, CENSOR);
  return `${maskedPath}?${params.toString()}`;
}

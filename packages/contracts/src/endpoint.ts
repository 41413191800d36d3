import type { z } from 'zod';
import type { ApiKeyScope } from './api-keys/schemas';
import { errorCatalogue, type ErrorCode } from './errors';
import type { AdminScope, OperatorRole } from './operators/roles';

/**
 * An endpoint of `/v3`, declared once: the server registers it from this declaration
 * (`platform/http`), the OpenAPI document is generated from it, and the web app calls it
 * through the typed client (`lib/api.ts`). Nothing else names its path.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call it:
 * - `public`: anyone;
 * - `optional`: anyone, and the session is read when one is presented;
 * - `session`: a signed-in browser or app session only (never an API key);
 * - `{ scope }`: a session, or an API key holding that scope.
 */
/**
 * `{ scope }`: a session, or an API key with that scope. With `productToken`, also an OpenID
 * Connect access token issued to the product the path's `{product}` names (its audience).
 */
export type EndpointAuth = 'public' | 'optional' | 'session' | { readonly scope: ApiKeyScope; readonly productToken?: true } | OperatorAuth;

/**
 * An admin endpoint (`/admin/...`): an operator holding one of `operator` (an `owner` may do
 * everything), with two-step verification on, and either a session that proved a factor a few
 * minutes ago at most or an operator API key holding `adminScope`. Enforced centrally
 * (platform/http); a changing one takes a `reason` in its body and is written to the
 * operator audit log.
 */
export interface OperatorAuth {
  readonly operator: readonly OperatorRole[];
  readonly adminScope: AdminScope;
}

export function isOperatorAuth(auth: EndpointAuth): auth is OperatorAuth {
  return typeof auth === 'object' && 'operator' in auth;
}

export interface EndpointDeclaration {
  readonly method: HttpMethod;
  /** Path under `/v3`, parameters written `{name}` (OpenAPI's way). */
  readonly path: string;
  readonly summary: string;
  /** The capability it belongs to (the OpenAPI tag). */
  readonly tag: string;
  readonly auth: EndpointAuth;
  readonly params?: z.ZodType;
  /**
   * The router's pattern for a path parameter written against other text (`{product}_platform`):
   * without it the router could not tell where the parameter's name ends.
   */
  readonly paramPatterns?: Readonly<Record<string, string>>;
  readonly query?: z.ZodType;
  /** JSON body; `multipart` for a file upload read by the handler itself. */
  readonly body?: z.ZodType | 'multipart';
  /** Status of a success, 200 unless said. */
  readonly status?: 200 | 201 | 204;
  /** Body of a success; `null` for none (204), `binary` for file bytes (an image). */
  readonly response: z.ZodType | null | 'binary';
  /** Catalogue codes it answers on purpose, besides the validation and session refusals every endpoint may give. */
  readonly errors?: readonly ErrorCode[];
  /**
   * A sensitive change: the session must have proved a factor (signed in, or re-authenticated
   * at POST /sso/me/reauth) within the last few minutes, else 403 `auth.reauth_required` and
   * the web app asks again in a dialog, then repeats the call. `second_step`: on an account
   * with two-step verification, that proof must have been the second step (a sign-in that passed
   * it, or a code, a recovery code or a passkey at /sso/me/reauth); refused with
   * `details.second_step`, and the dialog asks for it.
   */
  readonly recentAuth?: true | 'second_step';
}

/** Marked free of side effects so a bundle keeps only the declarations it calls. */
/* @__NO_SIDE_EFFECTS__ */
export function endpoint<const E extends EndpointDeclaration>(declaration: E): E {
  return declaration;
}

/** `GET /sso/me`: an endpoint's method and path in one, as the OpenAPI document and the docs write them. */
export type EndpointRoute = `${HttpMethod} /${string}`;
type RouteParts<R> = R extends `${infer M extends HttpMethod} ${infer P}` ? { readonly method: M; readonly path: P } : R;

/**
 * What a group of declarations shares, said once at the top of their file: the tag, usually
 * who may call them (and whether a recent proof of identity is needed), the errors every one
 * of them may answer, and the path parameters of the resource they act on.
 */
export type EndpointGroup = Pick<EndpointDeclaration, 'tag'> & Partial<Pick<EndpointDeclaration, 'auth' | 'recentAuth' | 'errors' | 'params' | 'paramPatterns'>>;

/** What a declaration of a group adds besides its summary: everything the group does not give, and may override what it does. */
type Own<G> = Omit<EndpointDeclaration, 'method' | 'path' | 'summary' | keyof G> & Partial<Omit<EndpointDeclaration, 'method' | 'path' | 'summary'>>;

type InGroup<G, R, E> = RouteParts<R> & Pick<EndpointDeclaration, 'summary'> & Omit<G, keyof E | 'errors'> & Omit<E, 'errors'> & Pick<EndpointDeclaration, 'errors'>;

/**
 * An endpoint of a group, its address and summary first, as a line of a table:
 * `endpointIn(signedIn, 'GET /sso/me/sessions', 'The signed-in sessions', { response })`.
 * Its errors come after the group's; whatever else it gives wins over the group. The route may
 * also be a first paint's `{ method, path }` (first-paint.ts).
 */
/* @__NO_SIDE_EFFECTS__ */
export function endpointIn<const G extends EndpointGroup, const R extends EndpointRoute | Pick<EndpointDeclaration, 'method' | 'path'>, const E extends Own<G>>(
  group: G,
  route: R,
  summary: string,
  own: E,
): InGroup<G, R, E> {
  const { method, path } = typeof route === 'string' ? { method: route.slice(0, route.indexOf(' ')) as HttpMethod, path: route.slice(route.indexOf(' ') + 1) } : route;
  const errors = [...(group.errors ?? []), ...(own.errors ?? [])];
  const declaration = { method, path, ...group, summary, ...own, ...(errors.length > 0 ? { errors } : {}) };
  // Checked where it is called (E fills what G leaves out); the method and path split from the route string are the ones its type names.
  return declaration as unknown as InGroup<G, R, E>;
}

/**
 * A capability's usual groups, by who may call: `anyone`; `maybeSignedIn` (the session is read
 * when there is one); `signedIn` (a session, never an API key); `sensitive` (a session that
 * proved a factor within the last few minutes); `sensitiveSecondStep` (the same, and on an account
 * with two-step verification that factor was the second step).
 */
/* @__NO_SIDE_EFFECTS__ */
export function endpointGroups<const T extends string>(tag: T) {
  return {
    anyone: { tag, auth: 'public' },
    maybeSignedIn: { tag, auth: 'optional' },
    signedIn: { tag, auth: 'session' },
    sensitive: { tag, auth: 'session', recentAuth: true },
    sensitiveSecondStep: { tag, auth: 'session', recentAuth: 'second_step' },
  } as const;
}

/**
 * The operators' console calls of a group (tag `admin`): operators holding one of `roles`
 * (an owner always may), with their session or an operator API key holding `adminScope`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function operatorGroup<const S extends AdminScope, const R extends readonly OperatorRole[]>(adminScope: S, roles: R) {
  return { tag: 'admin', auth: { operator: roles, adminScope } } as const;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

export type EndpointParams<E extends EndpointDeclaration> = Infer<E['params']>;
export type EndpointQuery<E extends EndpointDeclaration> = Infer<E['query']>;
export type EndpointBody<E extends EndpointDeclaration> = E['body'] extends 'multipart' ? FormData : Infer<E['body']>;
export type EndpointResponse<E extends EndpointDeclaration> = E['response'] extends z.ZodType ? z.infer<E['response']> : E['response'] extends 'binary' ? Blob : void;

/** What a caller sends: the parameters, query and body the declaration has, as their input types. */
export type EndpointInput<E extends EndpointDeclaration> = (E['params'] extends z.ZodType ? { params: Input<E['params']> } : { params?: undefined }) &
  (E['query'] extends z.ZodType ? { query: Input<E['query']> } : { query?: undefined }) &
  (E['body'] extends 'multipart' ? { body: FormData } : E['body'] extends z.ZodType ? { body: Input<E['body']> } : { body?: undefined });

/** `/sso/me/api-keys/{id}` with `{ id: 'x' }` → `/sso/me/api-keys/x` (each value URL-encoded; the types require every one). */
export function endpointPath(declaration: Pick<EndpointDeclaration, 'path'>, params: Record<string, unknown> = {}): string {
  return declaration.path.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(String(params[name])));
}

/**
 * The error statuses an endpoint can answer, each with the codes behind it: its own codes,
 * a 400 when it takes input, 401 and 403 when it needs a caller, 429 when it is limited.
 */
export function endpointErrorStatuses(declaration: EndpointDeclaration): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>(declaration.errors ?? []);
  if (declaration.params || declaration.query || declaration.body) codes.add('validation_error');
  if (declaration.auth !== 'public' && declaration.auth !== 'optional') codes.add('unauthorized').add('forbidden');
  if (declaration.recentAuth) codes.add('auth.reauth_required');
  if (isOperatorAuth(declaration.auth)) {
    codes.add('admin.forbidden').add('admin.two_factor_required').add('admin.scope_missing').add('auth.reauth_required');
    if (declaration.method !== 'GET') codes.add('admin.reason_required');
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = errorCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

import {
  endpointPath,
  type EndpointDeclaration,
  type EndpointInput,
  type EndpointResponse,
  DEFAULT_LANGUAGE,
  DEFAULT_RATE_LIMIT_WAIT_SECONDS,
  DEVICE_ID_HEADER,
  type FieldError,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  paths,
  VERIFICATION_CODE_LENGTH,
} from '@portal/contracts';
import { currentDeviceId, rememberDeviceId } from './device-id';
import { isErrorBody } from './error-body';
import { i18n } from './i18n';

/**
 * The one way the web app talks to `/v3`, and the one place the HTTP error policy of the
 * spec's error catalogue lives: every failed request gets the same toast, logout or redirect, unless
 * the caller says it handles that status itself (form-level errors).
 */

export type ToastKind = 'success' | 'warning' | 'error';

/** What the client needs from the app around it; wired once at start-up (and by tests). */
export interface ApiEnvironment {
  baseUrl: string;
  notify(kind: ToastKind, message: string): void;
  navigate(to: string): void;
  /** Clear the auth state and display-name cookie after a 401. */
  onUnauthorized(): void;
  fetch?: typeof fetch;
}

let environment: ApiEnvironment | null = null;

export function configureApi(next: ApiEnvironment): void {
  environment = next;
}

function env(): ApiEnvironment {
  if (!environment) throw new Error('configureApi() must run before the first request');
  return environment;
}

/** A toast from a page (a success after a form): the same toasts as the error policy's. */
export function notify(kind: ToastKind, message: string): void {
  env().notify(kind, message);
}

export class ApiError extends Error {
  /** HTTP status, or null when no response arrived (network failure). */
  readonly status: number | null;
  /** The error body's stable code (contracts errorCatalogue), or `http_<status>` / `network_error`. */
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** The server's own (English) message, before translation. */
  readonly serverMessage: string | undefined;

  constructor(init: { status: number | null; code: string; message: string; serverMessage?: string; details?: Record<string, unknown> }) {
    // `message` is already translated: forms that handle an error themselves can show it as is.
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.serverMessage = init.serverMessage;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as is when it is FormData. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Statuses the caller handles itself (say `[400]` for a form showing field errors): the
   * shared policy does nothing for them. `'all'` skips it for every failure, network
   * errors included. The ApiError is thrown either way.
   */
  handle?: readonly number[] | 'all';
  /** Keep the policy's logout and redirects, but show no toast. */
  silent?: boolean;
  /** Set on the repeat of a call after re-authentication, so it is asked once only. */
  reauthenticated?: boolean;
}

/**
 * Asks the person to prove it is them again (the signed-in shell's dialog); true when they did.
 * `refusal` says what the change asks (`details.second_step`: the second step, not the password).
 */
type ReauthPrompt = (refusal: ApiError) => Promise<boolean>;
let reauthPrompt: ReauthPrompt | null = null;

/**
 * A sensitive change answered 403 `auth.reauth_required` (the sign-in is too old): the shell
 * registers a dialog here that asks for the password or a code, and the call is then repeated
 * once. Without one (public pages), the error goes through the policy as any other.
 */
export function setReauthPrompt(prompt: ReauthPrompt | null): void {
  reauthPrompt = prompt;
}

// ---------------------------------------------------------------------------------------
// Messages

type Params = Record<string, string | number>;

/**
 * `errors.<code>` from the catalogue when it holds a text there (a code like `auth` names a
 * group, not a text), with the error's details as parameters.
 */
function translatedCode(code: string, params: Params = {}): string | undefined {
  return translated(`errors.${code}`, params);
}

/** Whether the catalogue (the parts loaded so far) holds a text at this key. */
const hasText = (key: string) => [i18n.language, DEFAULT_LANGUAGE].some((language) => typeof i18n.getResource(language, 'translation', key) === 'string');

function translated(key: string, params: Params): string | undefined {
  const text: unknown = hasText(key) ? i18n.t(key as never, params as never) : undefined;
  return typeof text === 'string' ? text : undefined;
}

function t(key: string, params?: Params): string {
  return translatedCode(key, params) ?? key;
}

function stringParams(details: Record<string, unknown> | undefined): Params {
  const params: Params = {};
  for (const [name, value] of Object.entries(details ?? {})) {
    if (typeof value === 'string' || typeof value === 'number') params[name] = value;
  }
  return params;
}

/** The constants the form messages name ("Enter a password of at least {min} characters"). */
const messageConstants: Params = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH, length: VERIFICATION_CODE_LENGTH };


/**
 * The i18n key and parameters of a field's error, or undefined when only its English message
 * says what is wrong (the generic `validation_error` of a zod rule without a code).
 */
export function fieldErrorKey(field: FieldError): { key: string; params: Params } | undefined {
  // A request schema's code (`validation.…`, `account.validation.…`) is its own key; the catalogue's live under `errors.`.
  const key = field.code.includes('validation.') ? field.code : `errors.${field.code}`;
  return field.code !== 'validation_error' && hasText(key) ? { key, params: { ...messageConstants, ...field.params } } : undefined;
}

/** A field's error in the current language: its code's words (the spec's texts among them), else the server's English. */
export function fieldErrorText(field: FieldError): string {
  const known = fieldErrorKey(field);
  return (known && translated(known.key, known.params)) ?? field.message;
}

const isFieldError = (value: unknown): value is FieldError => typeof (value as FieldError | null)?.code === 'string' && typeof (value as FieldError).message === 'string';

/** `details.fields` of a 400: each field's code and English message. */
export function fieldErrors(error: Pick<ApiError, 'details'>): Record<string, FieldError> {
  const fields = error.details?.fields;
  const found: Record<string, FieldError> = {};
  if (fields && typeof fields === 'object') {
    for (const [name, field] of Object.entries(fields)) if (isFieldError(field)) found[name] = field;
  }
  return found;
}

/**
 * What a failure says to the user: the translation of its code; for a 400 naming fields, the
 * first field's error (more use than "Invalid data"); else the server's message; else a fallback.
 */
function describe(code: string | undefined, serverMessage: string | undefined, details: Record<string, unknown> | undefined, fallbackKey: string): string {
  const specific = code && code !== 'validation_error' ? translatedCode(code, stringParams(details)) : undefined;
  const [firstField] = Object.values(fieldErrors({ details }));
  return specific ?? (firstField ? fieldErrorText(firstField) : (serverMessage ?? t(fallbackKey)));
}

export function retryAfterSeconds(error: Pick<ApiError, 'details' | 'serverMessage'>): number {
  const fromDetails = Number(error.details?.retry_after_seconds);
  if (Number.isFinite(fromDetails) && fromDetails > 0) return Math.ceil(fromDetails);
  const fromMessage = /\d+/.exec(error.serverMessage ?? '')?.[0];
  return fromMessage ? Number(fromMessage) : DEFAULT_RATE_LIMIT_WAIT_SECONDS;
}

/** The user-facing text of a failure with this status, code and body, in the current language. */
function messageFor(status: number | null, code: string, serverMessage: string | undefined, details: Record<string, unknown> | undefined): string {
  if (status === null) return t('request_failed');
  if (status === 400) return describe(code, serverMessage, details, 'validation_error');
  if (status === 401) return t('unauthorized');
  if (status === 403) return t('forbidden');
  if (status === 404) return t('not_found');
  if (status === 429) return t('rate_limited', { second: retryAfterSeconds({ details, serverMessage }) });
  return describe(code, serverMessage, details, 'request_failed');
}

/**
 * An error's text in the language shown now: forms keep the error and call this while
 * rendering, so a language switch re-translates what is on screen.
 */
export function errorText(error: ApiError): string {
  // The policy's toast for a 403 is the generic permission text (the spec's error catalogue); a page
  // that handles the 403 itself says which refusal it was (an account not activated).
  const specific = error.status === 403 ? translatedCode(error.code, stringParams(error.details)) : undefined;
  return specific ?? messageFor(error.status, error.code, error.serverMessage, error.details);
}

/**
 * The failure toast of a `silent` call, worded by the page ("Could not save: <why>"), unless
 * the policy has acted already (a sign-out on 401, the server error page on a 5xx).
 */
export function notifyFailure(error: unknown, text: string): void {
  const handledByPolicy = error instanceof ApiError && (error.status === 401 || (error.status ?? 0) > 500);
  if (!handledByPolicy) notify('error', error instanceof ApiError ? `${text}: ${errorText(error)}` : text);
}

// ---------------------------------------------------------------------------------------
// Errors from responses

async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined; // not JSON (a proxy's HTML page): the status alone decides
  }
  const parsed = isErrorBody(body) ? body : undefined;
  const code = parsed?.code ?? `http_${response.status}`;
  const serverMessage = parsed?.message;
  const details = parsed?.details;
  const status = response.status;

  const message = messageFor(status, code, serverMessage, details);
  return new ApiError({ status, code, message, serverMessage, details });
}

// ---------------------------------------------------------------------------------------
// The policy (the spec's error catalogue)

function applyErrorPolicy(error: ApiError, options: RequestOptions): void {
  const { handle, silent } = options;
  if (handle === 'all' || (error.status !== null && handle?.includes(error.status))) return;
  const { notify, navigate, onUnauthorized } = env();
  const toast = (kind: ToastKind) => {
    if (!silent) notify(kind, error.message);
  };

  const status = error.status;
  if (status === null) toast('error');
  else if (status === 400) toast('warning');
  else if (status === 401) onUnauthorized(); // silent by design: the guard takes the user to sign-in
  else if (status === 403) toast('error');
  else if (status === 404) {
    toast('error');
    navigate(paths.home);
  } else if (status === 429) toast('warning');
  else if (status > 500) navigate(paths.serverError);
  else toast('error');
}

// ---------------------------------------------------------------------------------------
// Requests

function urlFor(path: string, query: RequestOptions['query']): string {
  const base = env().baseUrl.replace(/\/+$/, '');
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const encoded = search.toString();
  const suffix = encoded ? `?${encoded}` : '';
  return `${base}${path.startsWith('/') ? path : `/${path}`}${suffix}`;
}

function requestInit(options: RequestOptions): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const deviceId = currentDeviceId();
  if (deviceId) headers[DEVICE_ID_HEADER] = deviceId;

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return { method: options.method ?? 'GET', headers, body, credentials: 'include', signal: options.signal };
}

async function successBody<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  if (!text) return undefined as T;
  return (response.headers.get('Content-Type')?.includes('json') ? JSON.parse(text) : text) as T;
}

/** The absolute address of an API path (a file to download with the session cookie, say). */
export function apiUrl(path: string): string {
  return urlFor(path, undefined);
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const doFetch = env().fetch ?? globalThis.fetch.bind(globalThis);
  let response: Response;
  try {
    response = await doFetch(urlFor(path, options.query), requestInit(options));
  } catch (cause) {
    // An abort is the caller's own decision, not a failure to report.
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new ApiError({ status: null, code: 'network_error', message: t('request_failed') });
    applyErrorPolicy(error, options);
    throw error;
  }

  rememberDeviceId(response.headers);
  if (response.ok) return successBody<T>(response);

  const error = await errorFromResponse(response);
  if (error.code === 'auth.reauth_required' && reauthPrompt && !options.reauthenticated && (await reauthPrompt(error))) {
    return apiRequest<T>(path, { ...options, reauthenticated: true });
  }
  applyErrorPolicy(error, options);
  throw error;
}

type BodylessOptions = Omit<RequestOptions, 'method' | 'body'>;


/** No argument when the endpoint takes no input; else its parameters, query and body. */
type InputArgument<E extends EndpointDeclaration> = Record<string, never> extends EndpointInput<E> ? [input?: EndpointInput<E>] : [input: EndpointInput<E>];
type CallArguments<E extends EndpointDeclaration> = [...InputArgument<E>, options?: BodylessOptions];

/**
 * Calls a declared endpoint (contracts): its path, method and the parse of its answer come
 * from the declaration, so no path is written twice and answers are checked, not asserted.
 *
 * A call made before the first paint passes the method and path its declaration spreads
 * (contracts `firstPaintRoutes`) with the declaration as the type: the input and answer are
 * typed by it, the answer is not parsed, and the first paint carries no schema:
 * `call<typeof accountEndpoints.me>(firstPaintRoutes.me)`.
 */
export async function call<E extends EndpointDeclaration>(
  declaration: E | Pick<E, 'method' | 'path'>,
  ...[input, options]: CallArguments<E>
): Promise<EndpointResponse<E>> {
  const { params, query, body } = (input ?? {}) as { params?: Record<string, unknown>; query?: RequestOptions['query']; body?: unknown };
  const answer = await apiRequest<unknown>(endpointPath(declaration, params), { ...(options as BodylessOptions | undefined), method: declaration.method, query, body });
  const schema = (declaration as Partial<EndpointDeclaration>).response;
  return (typeof schema === 'object' && schema ? schema.parse(answer) : answer) as EndpointResponse<E>;
}

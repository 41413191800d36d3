/**
 * The operator commands' second mode: with PORTAL_URL and OPERATOR_API_KEY set they change
 * nothing in the database themselves and call the running server's admin API instead (the
 * declared endpoints of @portal/contracts, so the path, the checks and the operator audit log
 * are the console's). That is how a command works beside a server that holds a PGlite folder.
 */
import { endpointPath, type EndpointDeclaration, type EndpointResponse } from '@portal/contracts';
import { UsageError } from './run-tool';

export interface AdminApi {
  /** The server's origin (PORTAL_URL without a trailing slash). */
  url: string;
  /** The operator API key (`pk_...`): sent as a bearer token only, never in a URL or a message. */
  key: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The admin API the caller named, or undefined for the database mode. PORTAL_URL and
 * OPERATOR_API_KEY go together; the key crosses plain http only to this machine.
 */
export function adminApiFrom(env: NodeJS.ProcessEnv = process.env): AdminApi | undefined {
  const url = env.PORTAL_URL?.trim();
  const key = env.OPERATOR_API_KEY?.trim();
  if (!url && !key) return undefined;
  if (!url || !key) throw new UsageError('PORTAL_URL and OPERATOR_API_KEY go together: the server to call and an operator API key (made in the console on the API keys page, /admin/api-keys, with the scopes the command needs)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`PORTAL_URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname))) {
    throw new UsageError('PORTAL_URL must be https (plain http only to localhost): the operator key travels with every call');
  }
  return { url: parsed.origin + parsed.pathname.replace(/\/+$/, ''), key };
}

/** The server refused the call: its error code and status (its message is the operator's to read). */
export class AdminApiRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    details: unknown,
  ) {
    super(`the server refused: ${status} ${code}${details === undefined ? '' : ` ${JSON.stringify(details)}`}${hint(code)}`);
    this.name = 'AdminApiRefused';
  }
}

function hint(code: string): string {
  if (code === 'admin.scope_missing') return ' (the operator API key lacks this scope: make one with it in the console)';
  if (code === 'admin.forbidden') return ' (the key\'s operator does not hold a role this command needs)';
  if (code === 'unauthorized') return ' (OPERATOR_API_KEY is not a valid operator key, or was revoked)';
  return '';
}

/**
 * One call of a declared admin endpoint; the answer is checked against its declared schema and
 * typed from it (or as `T` when the caller names one).
 */
export async function callAdmin<T = never, E extends EndpointDeclaration = EndpointDeclaration>(
  api: AdminApi,
  declaration: E,
  input: { params?: Record<string, unknown>; query?: Record<string, string | undefined>; body?: unknown } = {},
): Promise<[T] extends [never] ? EndpointResponse<E> : T> {
  const query = new URLSearchParams(Object.entries(input.query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const target = `${api.url}/v3${endpointPath(declaration, input.params)}${query.size ? `?${query}` : ''}`;
  let response: Response;
  try {
    response = await fetch(target, {
      method: declaration.method,
      headers: { authorization: `Bearer ${api.key}`, ...(input.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      // A redirect could carry the key elsewhere.
      redirect: 'error',
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw new Error(`cannot reach ${api.url}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
  }
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const body = (json ?? {}) as { code?: unknown; details?: unknown };
    throw new AdminApiRefused(response.status, typeof body.code === 'string' ? body.code : 'error', body.details);
  }
  const schema = declaration.response;
  return (schema && typeof schema === 'object' && 'parse' in schema ? schema.parse(json) : json) as [T] extends [never] ? EndpointResponse<E> : T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A command the admin API has no endpoint for: refused in that mode rather than done on a
 * database a running server may hold.
 */
export function notInAdminApi(command: string): never {
  throw new Error(
    `${command} has no admin API endpoint, so it cannot run through PORTAL_URL: unset PORTAL_URL and OPERATOR_API_KEY and run it on the database ` +
      '(with DATABASE_URL beside running servers; on PGlite once the server has stopped).',
  );
}

import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { destination, stdSerializers, type DestinationStream } from 'pino';
import { redactUrl } from './redact-url';

export type { DestinationStream };

/** Database error fields that carry the values of a statement (an email, a hash, a code). */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail', 'where']);
/** drizzle's "params: a,b,c" (up to the stack frames), in a message or a stack. */
const PARAMS_TEXT = /\nparams: .*(?:\n(?!\s+at ).*)*/g;

function scrubbed(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > 5) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (VALUE_FIELDS.has(key)) continue;
    out[key] = typeof field === 'string' ? field.replace(PARAMS_TEXT, '\nparams: [redacted]') : scrubbed(field, depth + 1);
  }
  return out;
}

/**
 * Errors as pino serializes them, without the values a failed statement was bound to: the
 * query text stays (it says what failed), its parameters and PostgreSQL's `detail` go.
 */
export function safeError(error: Error): ReturnType<typeof stdSerializers.err> {
  return scrubbed(stdSerializers.err(error)) as ReturnType<typeof stdSerializers.err>;
}

/** Keys whose values never reach a log line, at the top of a logged object or one level down. */
const SECRET_KEYS = [
  'password', 'new_password', 'token', 'code', 'key', 'secret', 'authorization', 'cookie',
  'WHC_SIGNER_KEY', 'privateKey', 'PARTNER_EXCHANGE_SECRET',
];
const SECRET_KEY_SET = new Set(SECRET_KEYS);
const CENSOR = '[redacted]';
/** Keys whose serializers below already keep only safe fields. */
const SERIALIZED_KEYS = new Set(['req', 'res', 'err']);

/**
 * The same as pino's `*.password`-style wildcard paths (one level down), in one pass: pino's
 * wildcard redaction walked every path for every top-level value and cost 25 µs of every
 * request's two log lines (measured: 32.6 µs against 7.7 µs without the wildcards). Copies
 * only what it censors; the logged object itself is never changed.
 */
export function censorNestedSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    const value = object[key];
    if (SERIALIZED_KEYS.has(key) || !value || typeof value !== 'object' || Array.isArray(value)) continue;
    let censored: Record<string, unknown> | undefined;
    for (const inner in value) {
      if (SECRET_KEY_SET.has(inner) && Object.hasOwn(value, inner)) (censored ??= { ...(value as Record<string, unknown>) })[inner] = CENSOR;
    }
    if (censored) {
      if (out === object) out = { ...object };
      out[key] = censored;
    }
  }
  return out;
}

/**
 * JSON logs through pino. Request lines carry method, masked URL (redact-url.ts) and client IP only;
 * headers and bodies are never logged, and the secret keys above are censored wherever a
 * handler might log them by mistake (top level by pino's redact paths, one level down by
 * `censorNestedSecrets`).
 */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    // Not req.headers or res.headers: the serializers below build those lines from scratch, so
    // headers never reach them, and redacting paths under req and res made pino copy both on
    // every request's two lines.
    redact: { paths: SECRET_KEYS, censor: CENSOR },
    formatters: { log: censorNestedSecrets },
    serializers: {
      err: safeError,
      // The URL as the matched route declares it: parameters that only name things kept, the rest masked.
      req(request: { method: string; url: string; ip?: string; params?: unknown; routeOptions?: { url?: string } }) {
        return { method: request.method, url: redactUrl(request.url, { pattern: request.routeOptions?.url, params: request.params }), ip: request.ip };
      },
      res(reply: { statusCode: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}

/**
 * The deployed server's log: stdout, written in blocks of at least 4 KiB, and at least every
 * 200 ms, instead of one write per line. Each write is a system call handed to libuv's thread
 * pool and its completion back; at a few thousand token grants a second that was a tenth of
 * the main thread's CPU on a 2-core machine. pino flushes what is held when the process exits
 * (a crash included); a kill -9 loses at most the last 200 ms of lines.
 */
export function stdoutLog(): DestinationStream {
  return destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 200 });
}

/**
 * One line per request, written when it is answered: method, masked URL, address, status and
 * time (and the error, for one that errored). Fastify's own writes two ("incoming request",
 * then "request completed"), each a serialization and a write to the log. Requests the
 * provider answers itself (a hijacked reply) are logged the same way.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    logCompleted(reply.log, request, reply, reply.elapsedTime, error);
  }
}

/** What the `req` serializer above reads of a request. */
export interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  params?: unknown;
  routeOptions?: { url?: string };
}

/**
 * A request's one line (OneLinePerRequest): the lean token entry of the oauth module, which
 * answers before Fastify, writes its requests' lines through this too, with the request id
 * Fastify's child logger would have bound.
 */
export function logCompleted(
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  request: LoggedRequest,
  reply: { statusCode: number },
  responseTime: number,
  error?: Error | null,
  reqId?: string,
): void {
  const ids = reqId === undefined ? {} : { reqId };
  if (error) log.error({ ...ids, req: request, res: reply, err: error, responseTime }, 'request errored');
  else log.info({ ...ids, req: request, res: reply, responseTime }, 'request completed');
}

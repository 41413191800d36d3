import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/** Query keys and path segments that carry secrets and never reach a log line. */
const SECRET_QUERY_KEYS = /^(token|code|key|password|secret|otp|state|code_verifier|client_secret|id_token_hint|access_token)$/i;
const SECRET_PATH = /^(\/(?:confirmation(?:\/app|\/education-email)?|reset-pwd|register)\/)[^/?#]+/;

/** A URL with secret parts masked, for logs. */
export function redactUrl(raw: string): string {
  const [path = '', query] = raw.split('?', 2);
  const maskedPath = path.replace(SECRET_PATH, '$1[redacted]');
  if (!query) return maskedPath;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.test(key)) params.set(key, '[redacted]');
  return `${maskedPath}?${params.toString()}`;
}

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

/**
 * JSON logs through pino. Request lines carry method, masked URL and client IP only;
 * headers and bodies are never logged, and the redact list catches secrets that a
 * handler might log by mistake.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'password', '*.password', 'new_password', '*.new_password', 'token', '*.token', 'code', '*.code',
        'key', '*.key', 'secret', '*.secret', 'authorization', '*.authorization', 'cookie', '*.cookie',
        'req.headers', 'res.headers', 'WHC_SIGNER_KEY', '*.WHC_SIGNER_KEY', 'privateKey', '*.privateKey',
        'PARTNER_EXCHANGE_SECRET', '*.PARTNER_EXCHANGE_SECRET',
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: safeError,
      req(request: { method: string; url: string; ip?: string }) {
        return { method: request.method, url: redactUrl(request.url), ip: request.ip };
      },
      res(reply: { statusCode: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}

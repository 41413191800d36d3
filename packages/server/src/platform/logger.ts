import type { FastifyServerOptions } from 'fastify';

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
        'req.headers', 'res.headers',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string }) {
        return { method: request.method, url: redactUrl(request.url), ip: request.ip };
      },
      res(reply: { statusCode: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}

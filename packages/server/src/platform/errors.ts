import { errorCatalogue, formatMessage, validationCodeOf, type ErrorBody, type ErrorCode, type FieldError } from '@portal/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { securityHeaders } from './security-headers';

/** A field's error as given to AppError: the message alone (it takes the error's code), or in full. */
type FieldInput = string | FieldError;

/**
 * `details.fields` as sent: each field with a code. A field given by its message alone belongs
 * to the error it explains (`auth.password_too_common` on `new_password`), so it takes the
 * error's code and parameters.
 */
function codedFields(fields: Record<string, FieldInput>, code: ErrorCode, params: Record<string, string | number>): Record<string, FieldError> {
  const coded: Record<string, FieldError> = {};
  for (const [name, field] of Object.entries(fields)) {
    coded[name] = typeof field === 'string' ? { code, message: field, ...(Object.keys(params).length ? { params } : {}) } : field;
  }
  return coded;
}

/** An error the API answers on purpose: a catalogue code, its status, and its message. */
export class AppError extends Error {
  readonly status: number;
  readonly details?: Record<string, unknown>;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    details?: Record<string, unknown>,
  ) {
    const entry = errorCatalogue[code];
    super(formatMessage(entry.message, params));
    this.status = entry.status;
    const fields = details?.fields as Record<string, FieldInput> | undefined;
    this.details = fields ? { ...details, fields: codedFields(fields, code, params) } : details;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

/** A 400 naming one field, with the code (and parameters) of its message. */
export function fieldError(field: string, code: ErrorCode, params: Record<string, string | number> = {}): AppError {
  const message = formatMessage(errorCatalogue[code].message, params);
  const error = new AppError('validation_error', {}, { fields: { [field]: { code, message, ...(Object.keys(params).length ? { params } : {}) } } });
  error.message = message;
  return error;
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

/** Each failing field with the code of its schema message (`validation.<key>`), or the generic code for zod's own. */
function fieldsOf(issues: ValidationIssue[], context: string): Record<string, FieldError> {
  const fields: Record<string, FieldError> = {};
  for (const issue of issues) {
    const path = issue.params?.issue?.path?.map(String).join('.') || issue.instancePath?.replace(/^\//, '').replace(/\//g, '.');
    const name = path || context;
    const message = issue.message ?? 'Invalid value';
    fields[name] ??= { code: validationCodeOf(message) ?? 'validation_error', message };
  }
  return fields;
}

const NUL_MESSAGE = 'Text may not contain the NUL character';

/** The path of the first string holding U+0000 (in a key or a value), if any. */
function nulField(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (!value || typeof value !== 'object' || depth > 20) return null;
  for (const [key, inner] of Object.entries(value)) {
    const name = Array.isArray(value) ? `${path}.${key}` : path === 'body' || path === 'query' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return name;
    const found = nulField(inner, name, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The refusal of a body or query holding U+0000, naming the field. */
export function nulError(field: string): AppError {
  const error = new AppError('validation_error', {}, { fields: { [field]: { code: 'validation_error', message: NUL_MESSAGE } } });
  error.message = `${field}: ${NUL_MESSAGE}`;
  return error;
}

/**
 * One error policy for the whole app: AppError as declared, schema failures as 400 naming
 * each field, Fastify's own client errors (bad JSON, too large, wrong type) as their 4xx, and
 * anything else as a logged 500 that reveals nothing.
 */
export function installErrorHandling(app: FastifyInstance): void {
  // PostgreSQL text cannot hold U+0000: a NUL anywhere in a body or query is refused as a
  // field error here, before it could reach a query and fail there as a 500 (api-fuzz.test.ts).
  app.addHook('preValidation', async (request) => {
    const field = nulField(request.body, 'body') ?? nulField(request.query, 'query');
    if (field) throw nulError(field);
  });
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 429 && error.details?.retry_after_seconds) {
        reply.header('retry-after', String(error.details.retry_after_seconds));
      }
      return reply.status(error.status).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldsOf(error.validation as ValidationIssue[], error.validationContext ?? 'body');
      const [first] = Object.entries(fields);
      const body: ErrorBody = {
        code: 'validation_error',
        message: first ? `${first[0]}: ${first[1].message}` : errorCatalogue.validation_error.message,
        details: { fields },
      };
      return reply.status(400).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const byStatus: Partial<Record<number, ErrorCode>> = {
        401: 'unauthorized',
        403: 'forbidden',
        404: 'not_found',
        413: 'payload_too_large',
        415: 'unsupported_media_type',
        429: 'rate_limited',
      };
      const code = byStatus[status] ?? 'validation_error';
      // Fastify's client errors (malformed JSON and the like) have safe, useful messages.
      return reply.status(status).send({ code, message: error.message || errorCatalogue[code].message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'something_went_wrong', message: errorCatalogue.something_went_wrong.message });
  });
}

/** What the router refuses because of the request itself, and the error each gets. */
const ROUTER_REFUSALS: Partial<Record<string, ErrorCode>> = { FST_ERR_MAX_PARAM_LENGTH: 'not_found', FST_ERR_BAD_URL: 'validation_error' };

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route, answered in the spec's
 * shape with the security headers (its answer otherwise is a bare 414 or 400 that no hook
 * sees). A path parameter longer than any id (the router's maxParamLength) names nothing: the
 * 404 of an unknown id, never a database error. A URL it cannot decode (`%zz`): 400. Anything
 * else Fastify sends here (a route constraint that failed) is the server's fault, not the
 * caller's: logged, and the 500 every unexpected error gets.
 */
export function routerRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal = ROUTER_REFUSALS[error.code];
  if (!refusal) request.log.error({ err: error }, 'router error');
  const code: ErrorCode = refusal ?? 'something_went_wrong';
  void reply
    .headers(securityHeaders(request.protocol))
    .status(errorCatalogue[code].status)
    .send({ code, message: errorCatalogue[code].message } satisfies ErrorBody);
}

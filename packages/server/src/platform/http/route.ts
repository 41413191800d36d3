import {
  ADMIN_REASON_MAX,
  ADMIN_REASON_MIN,
  endpointErrorStatuses,
  isOperatorAuth,
  type OperatorAuth,
  errorBodySchema,
  type EndpointBody,
  type EndpointDeclaration,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
} from '@portal/contracts';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors';

type Done = (error?: Error) => void;
export type PreHandler = (request: FastifyRequest, reply: FastifyReply, done: Done) => void;

/**
 * The pre-handlers behind a declaration's `auth`, given once by whoever resolves callers
 * (the sessions module): platform code knows the kinds, not how sessions work.
 */
export interface EndpointGuards {
  optional: PreHandler;
  session: PreHandler;
  /** A session, or an API key with the route's `config.scope`. */
  scoped: PreHandler;
  /** After the guard, for a declaration's `recentAuth`: the session proved a factor a few minutes ago at most. */
  recent: PreHandler;
  /** For `recentAuth: 'second_step'`: as `recent`, and on an account with two-step verification that proof was the second step. */
  recentSecondStep: PreHandler;
  /** As `scoped`, or an access token issued to the product the route's `{product}` parameter names. */
  product: PreHandler;
}

/**
 * The admin endpoints' side, given by the operators module: platform code knows that an
 * operator endpoint is guarded and its changes recorded, not what an operator is.
 */
export interface OperatorGuard {
  /** Resolves the operator (session or operator API key) and refuses per the route's `config.operator`. */
  check: PreHandler;
  /**
   * Runs a changing admin call's handler and writes its operator audit row, committed together
   * or not at all, before the answer leaves: a change whose record fails is undone and answers an error.
   */
  recordedChange<T>(request: FastifyRequest, declaration: EndpointDeclaration, change: () => Promise<T>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    endpointGuards: EndpointGuards;
    operatorGuard: OperatorGuard | null;
  }
  interface FastifyContextConfig {
    /** The roles and admin scope of an admin endpoint (its declaration's `auth`). */
    operator?: OperatorAuth;
  }
}

export function installEndpointGuards(app: FastifyInstance, guards: EndpointGuards): void {
  app.decorate('endpointGuards', guards);
}

/** Installed once before admin routes register (an admin route without it fails to register). */
export function installOperatorGuard(app: FastifyInstance, guard: OperatorGuard): void {
  app.decorate('operatorGuard', guard);
}

/** A call that changes something: it must give a reason, and is recorded. */
const changes = (declaration: EndpointDeclaration): boolean => declaration.method !== 'GET';

/** A changing admin call without a usable reason: refused before anything runs. */
const requireReason: PreHandler = (request, _reply, done) => {
  const reason = (request.body as { reason?: unknown } | undefined)?.reason;
  const length = typeof reason === 'string' ? reason.trim().length : 0;
  done(length >= ADMIN_REASON_MIN && length <= ADMIN_REASON_MAX ? undefined : new AppError('admin.reason_required'));
};

/** Every changing admin endpoint takes `reason` in its body: checked when it registers, not hoped for. */
function assertTakesReason(declaration: EndpointDeclaration): void {
  const body = declaration.body;
  const shape = body && body !== 'multipart' && body instanceof z.ZodObject ? (body.shape as Record<string, unknown>) : undefined;
  if (!shape || !('reason' in shape)) throw new Error(`${declaration.method} ${declaration.path}: a changing admin endpoint must take a reason in its body`);
}

export type EndpointRequest<E extends EndpointDeclaration> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
}>;

/** Answers the declared body (sent with the declared status), or the reply it sent itself (a cached string, a file). */
export type EndpointHandler<E extends EndpointDeclaration> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointResponse<E> | FastifyReply> | EndpointResponse<E> | FastifyReply;

/** What a route needs beyond its declaration. */
export interface RouteOptions {
  config?: FastifyContextConfig;
  bodyLimit?: number;
  /** Runs after the caller is resolved (a per-route limit, say). */
  preHandler?: PreHandler;
}

const SECURITY: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];

/** `{id}` → `:id`; with a pattern, `{product}_platform` → `:product(^[a-z]+)_platform`. */
const fastifyPath = ({ path, paramPatterns = {} }: EndpointDeclaration) =>
  path.replace(/\{(\w+)\}/g, (_whole, name: string) => (paramPatterns[name] ? `:${name}(${paramPatterns[name]})` : `:${name}`));

function schemaOf(declaration: EndpointDeclaration): NonNullable<RouteShorthandOptions['schema']> {
  const response: Record<number, z.ZodType> = {};
  if (declaration.response !== 'binary') response[declaration.status ?? (declaration.response === null ? 204 : 200)] = declaration.response ?? z.null();
  for (const status of endpointErrorStatuses(declaration).keys()) response[status] = errorBodySchema;
  return {
    tags: [declaration.tag],
    summary: declaration.summary,
    ...(declaration.auth === 'public' ? {} : { security: SECURITY }),
    ...(declaration.params ? { params: declaration.params } : {}),
    ...(declaration.query ? { querystring: declaration.query } : {}),
    ...(declaration.body === 'multipart' ? { consumes: ['multipart/form-data'] } : declaration.body ? { body: declaration.body } : {}),
    response,
  };
}

function guardOf(app: FastifyInstance, declaration: EndpointDeclaration): PreHandler | undefined {
  const { auth } = declaration;
  if (auth === 'public') return undefined;
  if (auth === 'optional') return app.endpointGuards.optional;
  if (auth === 'session') return app.endpointGuards.session;
  if (isOperatorAuth(auth)) return undefined;
  return auth.productToken ? app.endpointGuards.product : app.endpointGuards.scoped;
}

/**
 * Registers a declared endpoint: path, method, validation, OpenAPI schema and the guard of
 * its `auth` all come from the declaration; the handler only answers.
 */
export function route<E extends EndpointDeclaration>(app: FastifyInstance, declaration: E, handler: EndpointHandler<E>, options: RouteOptions = {}): void {
  const guard = guardOf(app, declaration);
  const operator = isOperatorAuth(declaration.auth) ? declaration.auth : undefined;
  if (operator && changes(declaration)) assertTakesReason(declaration);
  if (operator && !app.operatorGuard) throw new Error(`${declaration.path}: admin endpoints need the operators module's guard (installOperatorGuard)`);
  // An admin endpoint refuses a caller before its input is read: nobody but an operator learns what it takes.
  const preValidation = operator ? [app.operatorGuard!.check, ...(changes(declaration) ? [requireReason] : [])] : [];
  const recent = declaration.recentAuth === 'second_step' ? app.endpointGuards.recentSecondStep : declaration.recentAuth ? app.endpointGuards.recent : undefined;
  const preHandler = [guard, recent, options.preHandler].filter((step): step is PreHandler => step !== undefined);
  const scope = operator ? { operator } : typeof declaration.auth === 'object' && 'scope' in declaration.auth ? { scope: declaration.auth.scope } : {};
  const status = declaration.status ?? (declaration.response === null ? 204 : 200);
  app.route({
    method: declaration.method,
    url: fastifyPath(declaration),
    schema: schemaOf(declaration),
    config: { ...options.config, ...scope } as FastifyContextConfig,
    ...(preValidation.length ? { preValidation } : {}),
    ...(preHandler.length ? { preHandler } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (request, reply) => {
      const run = async () => handler(request as EndpointRequest<E>, reply);
      const answer = operator && changes(declaration) ? await app.operatorGuard!.recordedChange(request, declaration, run) : await run();
      if (answer === reply || reply.sent) return reply;
      return reply.status(status).send(declaration.response === null ? null : answer);
    },
  });
}

import {
  endpointErrorStatuses,
  errorBodySchema,
  type EndpointBody,
  type EndpointDeclaration,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
} from '@portal/contracts';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';

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
  /** As `scoped`, or an access token issued to the product the route's `{product}` parameter names. */
  product: PreHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    endpointGuards: EndpointGuards;
  }
}

export function installEndpointGuards(app: FastifyInstance, guards: EndpointGuards): void {
  app.decorate('endpointGuards', guards);
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
  return auth.productToken ? app.endpointGuards.product : app.endpointGuards.scoped;
}

/**
 * Registers a declared endpoint: path, method, validation, OpenAPI schema and the guard of
 * its `auth` all come from the declaration; the handler only answers.
 */
export function route<E extends EndpointDeclaration>(app: FastifyInstance, declaration: E, handler: EndpointHandler<E>, options: RouteOptions = {}): void {
  const guard = guardOf(app, declaration);
  const recent = declaration.recentAuth ? app.endpointGuards.recent : undefined;
  const preHandler = [guard, recent, options.preHandler].filter((step): step is PreHandler => step !== undefined);
  const scope = typeof declaration.auth === 'object' ? { scope: declaration.auth.scope } : {};
  const status = declaration.status ?? (declaration.response === null ? 204 : 200);
  app.route({
    method: declaration.method,
    url: fastifyPath(declaration),
    schema: schemaOf(declaration),
    config: { ...options.config, ...scope } as FastifyContextConfig,
    ...(preHandler.length ? { preHandler } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (request, reply) => {
      const answer = await handler(request as EndpointRequest<E>, reply);
      if (answer === reply || reply.sent) return reply;
      return reply.status(status).send(declaration.response === null ? null : answer);
    },
  });
}

import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { resourcesRoutes } from './modules/resources/routes';
import { healthRoutes } from './modules/system/routes';
import { installWebApp } from './modules/system/web-app';
import { installDeviceId } from './platform/device-id';
import { installErrorHandling } from './platform/errors';
import { loggerOptions } from './platform/logger';
import { installMetrics } from './platform/metrics';
import { installSecurityHeaders } from './platform/security-headers';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  /** Folder of the built web app (index.html + assets). */
  webDist: string;
  /** Override the logger (tests pass false). */
  logger?: boolean;
}

/** Builds the Fastify app from platform plugins and capability modules. Does not listen. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await installSecurityHeaders(app);
  await app.register(cookie);
  installDeviceId(app);
  installMetrics(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Identity portal API', version: '3.0.0' },
      servers: [{ url: '/v3' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'auth_token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(healthRoutes(database));
  await app.register(
    async (v3) => {
      await v3.register(resourcesRoutes);
      v3.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/v3' },
  );
  await installWebApp(app, config, deps.webDist);
  return app;
}

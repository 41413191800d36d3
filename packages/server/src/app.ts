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
import { accountRoutes } from './modules/account/routes';
import { createRecoveryService } from './modules/auth/recovery';
import { authRoutes } from './modules/auth/routes';
import { createAuthService } from './modules/auth/service';
import { resourcesRoutes } from './modules/resources/routes';
import { installAuthGuard } from './modules/sessions/guard';
import { sessionRoutes } from './modules/sessions/routes';
import { createSessionService } from './modules/sessions/service';
import { healthRoutes } from './modules/system/routes';
import { installWebApp } from './modules/system/web-app';
import { captchaRoutes, createCaptchaVerifier, type CaptchaVerifier } from './platform/captcha';
import { systemClock, type Clock } from './platform/clock';
import { randomToken } from './platform/crypto';
import { installDeviceId } from './platform/device-id';
import { installErrorHandling } from './platform/errors';
import { loggerOptions } from './platform/logger';
import { createMailer, outboxRoutes, type Mailer } from './platform/mail';
import { installMetrics } from './platform/metrics';
import { createRateLimiter, type RateLimiter } from './platform/rate-limit';
import { installSecurityHeaders } from './platform/security-headers';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  /** Folder of the built web app (index.html + assets). */
  webDist: string;
  /** Override the logger (tests pass false). */
  logger?: boolean;
  /** Tests move time with a manual clock. */
  clock?: Clock;
  mailer?: Mailer;
  limiter?: RateLimiter;
  captcha?: CaptchaVerifier;
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

  const clock = deps.clock ?? systemClock;
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, database, logger: app.log });
  const limiter = deps.limiter ?? createRateLimiter({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, logger: app.log });
  // Solved challenges are remembered in the shared limiter store, so one cannot be replayed on another node.
  const captcha = deps.captcha ?? createCaptchaVerifier(config, { replayStore: limiter, logger: app.log });
  const sessions = createSessionService(database.db, clock);
  const shared = { config, db: database.db, clock, mailer, limiter, captcha, sessions, log: app.log };
  const auth = createAuthService(shared);
  // Hints for unknown usernames must be stable across nodes: derive from a configured secret when there is one.
  const recovery = createRecoveryService({ ...shared, auth, hintSecret: config.ALTCHA_HMAC_KEY ?? randomToken() });
  installAuthGuard(app, sessions);
  app.addHook('onClose', async () => {
    if (!deps.limiter) await limiter.close();
    if (!deps.mailer) await mailer.close();
  });

  await app.register(healthRoutes(database));
  if (config.NODE_ENV !== 'production') await app.register(outboxRoutes(database));
  await app.register(
    async (v3) => {
      await v3.register(resourcesRoutes);
      await v3.register(captchaRoutes(captcha));
      await v3.register(authRoutes(config, auth, recovery));
      await v3.register(sessionRoutes(config, sessions));
      await v3.register(accountRoutes(config, database.db, clock, sessions));
      v3.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/v3' },
  );
  await installWebApp(app, config, deps.webDist);
  return app;
}

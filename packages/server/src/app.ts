import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { transactionScoped } from './db/scoped-transaction';
import { accountModule } from './modules/account';
import { adminDashboardModule } from './modules/admin-dashboard';
import { apiKeysModule } from './modules/api-keys';
import { auditModule } from './modules/audit';
import { authModule } from './modules/auth';
import { billingModule } from './modules/billing';
import { companySsoModule, SAML_ACS_PREFIX } from './modules/company-sso';
import { federationModule } from './modules/federation';
import { mfaModule } from './modules/mfa';
import { moderatorsModule } from './modules/moderators';
import { notificationsModule } from './modules/notifications';
import { oauthModule } from './modules/oauth';
import { operatorsModule } from './modules/operators';
import { membershipModule, organizationsModule } from './modules/organizations';
import { passkeysModule } from './modules/passkeys';
import { resourcesModule } from './modules/resources';
import { securityModule } from './modules/security';
import { authGuardModule, sessionsModule } from './modules/sessions';
import { supportChatModule } from './modules/support-chat';
import { installWebApp, systemModule } from './modules/system';
import { usersModule } from './modules/users';
import { walletModule, type PayoutHooks } from './modules/wallet';
import { webhooksModule } from './modules/webhooks';
import { peopleAdminModule } from './people-admin';
import { captchaRoutes, createCaptchaVerifier, type CaptchaVerifier } from './platform/captcha';
import { fastifyTrustProxy } from './platform/client-address';
import { systemClock, type Clock } from './platform/clock';
import { installCrossSiteGuard } from './platform/cross-site';
import { createDataProtection, loadDataKey } from './platform/data-protection';
import { installDeviceId } from './platform/device-id';
import { installErrorHandling, routerRefusal } from './platform/errors';
import { loggerOptions, OneLinePerRequest, type DestinationStream } from './platform/logger';
import { createMailer, outboxRoutes, type Mailer } from './platform/mail';
import { installMetrics } from './platform/metrics';
import { ModuleList, type Http, type Platform } from './platform/modules';
import { createRateLimiter, type RateLimiter } from './platform/rate-limit';
import { installSecurityHeaders } from './platform/security-headers';
import { responseSerializerCompiler } from './platform/serializer';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  /** Folder of the built web app (index.html + assets). */
  webDist: string;
  /** Override the logger (tests pass false). */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests that read them). */
  logStream?: DestinationStream;
  /** Tests move time with a manual clock. */
  clock?: Clock;
  mailer?: Mailer;
  limiter?: RateLimiter;
  captcha?: CaptchaVerifier;
  /** The key of secrets at rest; by default DATA_ENCRYPTION_KEY or the generated file (loadDataKey). */
  dataKey?: Buffer;
  /** Test hook of the renewal job (billing): runs after a renewal's charge. */
  afterRenewalCharge?: (subscriptionId: string) => Promise<void> | void;
  /** Test hooks of the payout job (wallet): inside a payout's transaction, and after its commit. */
  payoutHooks?: PayoutHooks;
}

/**
 * Builds the Fastify app from platform plugins and capability modules. Does not listen. The
 * modules are listed in dependency order: each is made from the ones before it (TypeScript
 * refuses one that asks for a module listed later), then their guards, jobs and routes are
 * installed in the same order.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  // Every module's queries can join one transaction (an operator's action and its audit row).
  database.db = transactionScoped(database.db);
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(config.LOG_LEVEL, deps.logStream),
    logController: new OneLinePerRequest(),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: routerRefusal,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  installErrorHandling(app);
  installSecurityHeaders(app);
  // The provider's endpoints authenticate their clients themselves (and its logout form carries its own xsrf).
  // Apple's form_post comes from appleid.apple.com: POST /callback only redirects to the page, it changes nothing.
  // The provider's own endpoints answer CORS per client, preflights included.
  installCrossSiteGuard(app, config, { exemptPrefixes: ['/oidc/', '/callback', SAML_ACS_PREFIX], ownCorsPrefixes: ['/oidc/'] });
  await app.register(cookie);
  installDeviceId(app);
  installMetrics(app, config);

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
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, database, logger: app.log, logBodies: config.NODE_ENV === 'development' });
  const limiter = deps.limiter ?? createRateLimiter({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, logger: app.log });
  // Solved challenges are remembered in the shared limiter store, so one cannot be replayed on another node.
  const captcha = deps.captcha ?? createCaptchaVerifier(config, { replayStore: limiter, logger: app.log });
  const secrets = createDataProtection(deps.dataKey ?? loadDataKey(config));
  const platform: Platform = { config, database, db: database.db, clock, mailer, limiter, captcha, secrets, log: app.log };

  const modules = await ModuleList.of({ platform })
    .add(systemModule)
    .add(sessionsModule)
    .add(usersModule)
    .add(adminDashboardModule)
    .add(oauthModule)
    .add(apiKeysModule)
    .add(authGuardModule)
    .add(resourcesModule)
    .add(mfaModule)
    .add(notificationsModule)
    .add(moderatorsModule)
    .add(auditModule)
    .add(membershipModule)
    .add(authModule)
    .add(passkeysModule)
    .add(federationModule)
    .add(securityModule)
    .add(accountModule)
    .add(organizationsModule)
    .add(walletModule({ payoutHooks: deps.payoutHooks }))
    .add(companySsoModule)
    .add(billingModule({ afterRenewalCharge: deps.afterRenewalCharge }))
    .add(supportChatModule)
    .add(webhooksModule)
    .add(operatorsModule)
    .add(peopleAdminModule)
    .create((close) => app.addHook('onClose', close));

  await modules.run('guard', app);
  await modules.run('jobs', app);
  app.addHook('onClose', async () => {
    if (!deps.limiter) await limiter.close();
    if (!deps.mailer) await mailer.close();
  });

  await modules.run('rootRoutes', app);
  if (config.DEV_OUTBOX) await app.register(outboxRoutes(database));
  await app.register(
    async (v3: Http) => {
      await v3.register(captchaRoutes(captcha));
      await modules.run('routes', v3);
      v3.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/v3' },
  );
  await installWebApp(app, config, deps.webDist);
  return app;
}

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
import { accountModule, type DeletionService } from './modules/account';
import { adminDashboardModule } from './modules/admin-dashboard';
import { apiKeysModule } from './modules/api-keys';
import { auditModule } from './modules/audit';
import { authModule, type AuthMade } from './modules/auth';
import { billingAdmin, billingAdminRoutes, billingConsole, billingRoutes, createBillingService, installReceiptJob, installRenewalJob, licenseSecretOf } from './modules/billing';
import { companySsoRoutes, createCompanySsoService, SAML_ACS_PREFIX } from './modules/company-sso';
import { federationModule } from './modules/federation';
import { mfaModule, type MfaMade } from './modules/mfa';
import { moderatorsModule } from './modules/moderators';
import { notificationsModule } from './modules/notifications';
import { oauthModule, type OAuthMade } from './modules/oauth';
import { createOperatorService, grantConfiguredOwners, installOperatorAccess, operatorAdminRoutes, operatorOf } from './modules/operators';
import { membershipModule, organizationsModule, type OrganizationsMade } from './modules/organizations';
import { passkeysModule, type PasskeyService } from './modules/passkeys';
import { resourcesModule } from './modules/resources';
import { securityModule } from './modules/security';
import { authGuardModule, sessionsModule, type SessionsMade } from './modules/sessions';
import { supportChatRoutes } from './modules/support-chat';
import { healthRoutes, installWebApp } from './modules/system';
import { peopleAdminRoutes, usersModule, type UserService } from './modules/users';
import {
  createChainWithdrawalService,
  createDepositService,
  createPartnerTransferService,
  createPayoutService,
  createWalletService,
  createWhcDepositFollower,
  createWhcDepositService,
  installChainJob,
  installDepositFollower,
  installPartnerJob,
  installPayoutJob,
  payoutRoutes,
  walletAdminRoutes,
  walletConsole,
  walletRoutes,
  type PayoutHooks,
} from './modules/wallet';
import { createWebhookService, installWebhookDeliveryJob, webhookAdminRoutes } from './modules/webhooks';
import { createPeopleAdmin } from './people-admin';
import { captchaRoutes, createCaptchaVerifier, type CaptchaVerifier } from './platform/captcha';
import { fastifyTrustProxy } from './platform/client-address';
import { systemClock, type Clock } from './platform/clock';
import { installCrossSiteGuard } from './platform/cross-site';
import { createDataProtection, loadDataKey } from './platform/data-protection';
import { installDeviceId } from './platform/device-id';
import { installErrorHandling } from './platform/errors';
import { loggerOptions, OneLinePerRequest, type DestinationStream } from './platform/logger';
import { egressPolicyFor } from './platform/egress';
import { createMailer, outboxRoutes, type Mailer } from './platform/mail';
import { installMetrics } from './platform/metrics';
import { defineModule, ModuleList, type Http, type Platform } from './platform/modules';
import { createPaymentProcessor, sandboxRoutes } from './platform/payments';
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
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  installErrorHandling(app);
  installSecurityHeaders(app);
  // The provider's endpoints authenticate their clients themselves (and its logout form carries its own xsrf).
  // Apple's form_post comes from appleid.apple.com: POST /callback only redirects to the page, it changes nothing.
  installCrossSiteGuard(app, config, { exemptPrefixes: ['/oidc/', '/callback', SAML_ACS_PREFIX] });
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
    .add(defineModule({
      name: 'rest',
      create: async (needs: { platform: Platform; sessions: SessionsMade; users: UserService; mfa: MfaMade; auth: AuthMade; passkeys: { passkeys: PasskeyService }; account: { deletion: DeletionService }; organizations: OrganizationsMade; oauth: OAuthMade }) => {
        const shared = { ...platform, sessions: needs.sessions.service };
        const { secondFactor, mfa } = needs.mfa;
        const { signIn, auth } = needs.auth;
        const { organizations } = needs.organizations;
        const { passkeys } = needs.passkeys;
        const { deletion } = needs.account;
        const sessions = needs.sessions.service;
        const oauth = needs.oauth;
        const wallet = createWalletService({ db: database.db, clock, config, requireSecondFactor: (user, proof) => secondFactor.requireFactor(user, proof, 'two_factor_email') });
        const deposits = createDepositService({ db: database.db, clock, config, log: app.log });
        // WHC to BEP20 addresses: a code every time (as transfers), the password for a first withdrawal to an address.
        const chainWithdrawals = createChainWithdrawalService({
          db: database.db,
          clock,
          config,
          log: app.log,
          requireSecondFactor: (user, proof) => secondFactor.requireFactor(user, proof, 'two_factor_email'),
          confirmPassword: (user, password) => secondFactor.confirmPassword(user, password),
        });
        const chainJob = installChainJob(app, chainWithdrawals, config.WHC_CHAIN_POLL_SECONDS);
        // Transfers to a partner exchange wallet: the same rules as transfers here, pending until the partner's signed callback.
        const partnerTransfers = createPartnerTransferService({ db: database.db, clock, config, log: app.log, wallet });
        installPartnerJob(app, partnerTransfers, config.PARTNER_EXCHANGE_RETRY_SECONDS);
        // WHC deposits: addresses from the configured xpub, the chain's token transfers to them credited after confirmations.
        const whcDeposits = createWhcDepositService({ db: database.db, clock, config, log: app.log });
        installDepositFollower(app, createWhcDepositFollower({ db: database.db, clock, config, log: app.log }), config.WHC_CHAIN_POLL_SECONDS);
        // Billing: the configured processor (Stripe, or the built-in sandbox) behind one interface.
        const payments = createPaymentProcessor(config, database.db, clock);
        const companySso = createCompanySsoService({ ...shared, signIn, organizations });
        needs.auth.companySsoMembership.bind((user) => companySso.membershipOf(user));
        needs.organizations.ssoView.bind(companySso);
        const billing = createBillingService({
          ...shared,
          processor: payments.processor,
          organizations,
          licenseSecret: licenseSecretOf(config, secrets),
          afterRenewalCharge: deps.afterRenewalCharge,
        });
        if (config.SEED_DEMO) await billing.seedDemoPromoCodes();
        oauth.productPlan.bind(async (userId, product) => {
          const plan = await billing.productPlan(userId, product);
          return plan && { product: plan.plan.split('.')[0] ?? product, ...plan };
        });
        // Operators: every admin endpoint is guarded and its changes recorded by this module.
        const operators = createOperatorService({ db: database.db, clock, findUserByEmail: (email) => needs.users.findByEmail(email) });
        await grantConfiguredOwners(operators, config.OPERATOR_EMAILS, app.log);
        installRenewalJob(app, billing, config.BILLING_JOB_INTERVAL_SECONDS);
        installReceiptJob(app, billing, config.BILLING_RECEIPT_INTERVAL_SECONDS);
        // Events to products: queued by the database's triggers with the change, sent by every node's job.
        const webhookOptions = { db: database.db, clock, secrets, egress: egressPolicyFor(config) };
        const webhooks = createWebhookService(webhookOptions);
        installWebhookDeliveryJob(app, { ...webhookOptions, intervalMs: config.WEBHOOK_DELIVERY_INTERVAL_MS });
        // Researcher rewards (posted by the bug-bounty platform's client) paid on the 10th.
        const payouts = createPayoutService({ ...shared, hooks: deps.payoutHooks });
        // People in the operators' console: each page and action through the module that owns it.
        const people = createPeopleAdmin({ db: database.db, clock, sessions, passkeys, organizations, oauth: oauth.service, wallet, billing, mfa, auth, deletion, operators });
        const payoutTestDate = config.PAYOUT_TEST_DATE;
        installPayoutJob(app, payouts, config.PAYOUT_JOB_INTERVAL_SECONDS, payoutTestDate ? () => new Date(`${payoutTestDate}T12:00:00Z`) : undefined);
        return { wallet, deposits, chainWithdrawals, chainJob, partnerTransfers, whcDeposits, payments, companySso, billing, operators, webhooks, payouts, people };
      },
      guard: (root, r, needs) => installOperatorAccess(root, config, needs.sessions.service, r.operators),
      routes: async (v3, r, needs) => {
        const { payments, billing, wallet, deposits, chainWithdrawals, chainJob, whcDeposits, partnerTransfers, payouts, operators, companySso, webhooks, people } = r;
        await v3.register(supportChatRoutes(config, (userId, product) => billing.productPlan(userId, product)));
        await v3.register(sandboxRoutes(payments.sandbox, limiter));
        await v3.register(billingRoutes(config, billing, payments.stripe));
        await v3.register(walletRoutes(wallet, deposits, chainWithdrawals, () => chainJob.kick(), whcDeposits, partnerTransfers));
        await v3.register(payoutRoutes(config, payouts, needs.oauth.clientTokens, limiter));
        await v3.register(operatorAdminRoutes(operators, clock));
        await v3.register(companySsoRoutes(config, companySso));
        await v3.register(webhookAdminRoutes(webhooks));
        const licenseSecret = licenseSecretOf(config, secrets);
        const billingOperators = { admin: billingAdmin({ db: database.db, clock, licenseSecret }), console: billingConsole({ db: database.db, clock, licenseSecret }), billing };
        await v3.register(billingAdminRoutes(billingOperators));
        await v3.register(walletAdminRoutes(walletConsole({ db: database.db, clock }), payouts));
        await v3.register(peopleAdminRoutes(config, people, (request) => ({ roles: operatorOf(request).roles })));
      },
    }))
    .create((close) => app.addHook('onClose', close));

  await modules.run('guard', app);
  await modules.run('jobs', app);
  app.addHook('onClose', async () => {
    if (!deps.limiter) await limiter.close();
    if (!deps.mailer) await mailer.close();
  });

  await app.register(healthRoutes(database));
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

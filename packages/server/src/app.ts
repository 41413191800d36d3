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
import { accountRoutes, createAccountService, createDeletionService, installDeletionPurgeJob } from './modules/account';
import { apiKeysModule } from './modules/api-keys';
import { billingAdmin, billingAdminRoutes, billingConsole, billingRoutes, createBillingService, installReceiptJob, installRenewalJob, licenseSecretOf } from './modules/billing';
import {
  createChainWithdrawalService,
  createDepositService,
  createWalletService,
  createWhcDepositFollower,
  createWhcDepositService,
  createPartnerTransferService,
  installPartnerJob,
  installChainJob,
  installDepositFollower,
  installPayoutJob,
  payoutRoutes,
  createPayoutService,
  type PayoutHooks,
  walletRoutes,
  walletAdminRoutes,
  walletConsole,
} from './modules/wallet';
import { createMembershipService, createOrganizationService, membershipRoutes, organizationAdminRoutes, organizationConsole, organizationRoutes, type MembershipChange } from './modules/organizations';
import { peopleAdminRoutes, toUserDto, usersModule, type UserService } from './modules/users';
import { createPeopleAdmin } from './people-admin';
import { adminDashboardModule, type DashboardCounter } from './modules/admin-dashboard';
import { transactionScoped } from './db/scoped-transaction';
import { auditRoutes, createAuditService, recordMembershipChange } from './modules/audit';
import { createWebhookService, installWebhookDeliveryJob, webhookAdminRoutes } from './modules/webhooks';
import { egressPolicyFor } from './platform/egress';
import { authRoutes, createAuthService, createRecoveryService, createSignIn, signInRoutes } from './modules/auth';
import { createMfaService, createSecondFactorService, mfaRoutes } from './modules/mfa';
import { createModeratorService, moderatorRoutes } from './modules/moderators';
import { createNotificationService, createSecurityAlertWorker, installSecurityAlertJob, notificationRoutes } from './modules/notifications';
import { createOperatorService, grantConfiguredOwners, installOperatorAccess, operatorAdminRoutes, operatorOf } from './modules/operators';
import { oauthModule, type OAuthMade } from './modules/oauth';
import { createPasskeyService, passkeyRoutes } from './modules/passkeys';
import { createFederationService, federationRoutes, socialFormPostRoute } from './modules/federation';
import { companySsoRoutes, createCompanySsoService, SAML_ACS_PREFIX } from './modules/company-sso';
import { resourcesRoutes } from './modules/resources';
import { createSecurityService, securityRoutes } from './modules/security';
import { authGuardModule, sessionsModule, type SessionService } from './modules/sessions';
import { supportChatRoutes } from './modules/support-chat';
import { healthRoutes, installWebApp } from './modules/system';
import { captchaRoutes, createCaptchaVerifier, type CaptchaVerifier } from './platform/captcha';
import { originFor } from './platform/brand';
import { fastifyTrustProxy } from './platform/client-address';
import { systemClock, type Clock } from './platform/clock';
import { installCrossSiteGuard } from './platform/cross-site';
import { createDataProtection, loadDataKey } from './platform/data-protection';
import { installDeviceId } from './platform/device-id';
import { installErrorHandling } from './platform/errors';
import { loggerOptions, OneLinePerRequest, type DestinationStream } from './platform/logger';
import { createMailer, outboxRoutes, type Mailer } from './platform/mail';
import { createPaymentProcessor, sandboxRoutes } from './platform/payments';
import { installMetrics } from './platform/metrics';
import { createRateLimiter, type RateLimiter } from './platform/rate-limit';
import { installSecurityHeaders } from './platform/security-headers';
import { defineModule, ModuleList, type Http } from './platform/modules';
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

/** Builds the Fastify app from platform plugins and capability modules. Does not listen. */
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
  const platform = { config, database, db: database.db, clock, mailer, limiter, captcha, secrets, log: app.log };

  // The modules in dependency order: each is made from the ones listed before it.
  const modules = await ModuleList.of({ platform })
    .add(sessionsModule)
    .add(usersModule)
    .add(adminDashboardModule)
    .add(oauthModule)
    .add(apiKeysModule)
    .add(authGuardModule)
    .add(defineModule({
      name: 'rest',
      create: async (needs: { platform: typeof platform; sessions: { service: SessionService }; users: UserService; dashboard: { countEvent: DashboardCounter }; oauth: OAuthMade; apiKeys: unknown }) => {
        const sessions = needs.sessions.service;
        const directory = needs.users;
        const countEvent = needs.dashboard.countEvent;
        const oauth = needs.oauth;
        const shared = { config, db: database.db, clock, mailer, limiter, captcha, sessions, secrets, log: app.log };
        // The second factor's checks and pending sign-ins; the sign-in pipeline (modules/auth) asks it for its challenge.
        const secondFactor = createSecondFactorService(shared);
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
        // A member of an organization that requires company SSO signs in only through its IdP (bound late: company SSO needs the pipeline).
        // A sign-in's security alerts are queued with its session and delivered after the answer: right away on this node, else by any node's sweep.
        const securityAlerts = createSecurityAlertWorker(shared);
        installSecurityAlertJob(app, securityAlerts, config.SECURITY_ALERT_INTERVAL_SECONDS);
        const signIn = createSignIn({ ...shared, secondFactor, membershipOf: (user) => companySso.membershipOf(user), countEvent, securityAlerts });
        // Organization roles and invitations; every membership and role change goes to the organization's audit log.
        const onMembershipChanged = async (change: MembershipChange) =>
          recordMembershipChange({ db: database.db, clock }, change, change.actorUserId ? (await directory.findById(change.actorUserId))?.email : null);
        const membership = createMembershipService({ ...shared, onMembershipChanged });
        // Website moderators invited by the products' back ends (client credentials, scope moderators).
        const moderators = createModeratorService(shared);
        // An account that signed up from an organization or moderator invitation joins (is accepted) once activated.
        const auth = createAuthService({
          ...shared,
          signIn,
          afterActivation: async (user) => {
            await moderators.acceptOnActivation(user);
            await membership.joinOnActivation(user);
          },
        });
        const mfa = createMfaService({ ...shared, secondFactor });
        await mfa.protectLegacySecrets();
        const passkeys = createPasskeyService({ ...shared, auth, signIn, secondFactor });
        const federation = createFederationService({ ...shared, signIn, provedRecently: (session) => sessions.provedWithin(session, config.REAUTH_MAX_AGE_SECONDS) });
        const security = createSecurityService({ ...shared, secondFactor, mfa, passkeys });
        // Hints for unknown usernames must be stable across nodes and restarts: keyed by the data key.
        const recovery = createRecoveryService({ ...shared, signIn, auth, hintSecret: secrets.keyedHash('recovery hint key') });
        const notifications = createNotificationService(shared);
        // Email change and deletion take the second factor when it is on (the email method's code comes from POST /sso/me/2fa/email/send).
        const account = createAccountService({
          ...shared,
          verifySecondFactor: async (user, proof) => (await secondFactor.requireFactor(user, proof, 'two_factor_email'), true),
        });
        const deletion = createDeletionService({ ...shared, account, restoreSignIn: signIn.restore });
        // Billing: the configured processor (Stripe, or the built-in sandbox) behind one interface.
        const payments = createPaymentProcessor(config, database.db, clock);
        // Just-in-time SSO members are recorded in the audit log like the page's changes.
        const organizations = createOrganizationService({
          db: database.db,
          clock,
          onMembershipChanged,
          log: app.log,
          accounts: {
            async accountOf(email) {
              const user = await directory.findByEmail(email);
              if (!user) return undefined;
              const avatar = toUserDto(user).avatar_url;
              return { userId: user.id, avatarUrl: avatar && new URL(avatar, originFor(config, 'platform')).toString() };
            },
            passkeyCount: (userId) => passkeys.count(userId),
          },
        });
        const companySso = createCompanySsoService({ ...shared, signIn, organizations });
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
        const operators = createOperatorService({ db: database.db, clock, findUserByEmail: (email) => directory.findByEmail(email) });
        await grantConfiguredOwners(operators, config.OPERATOR_EMAILS, app.log);
        installRenewalJob(app, billing, config.BILLING_JOB_INTERVAL_SECONDS);
        installReceiptJob(app, billing, config.BILLING_RECEIPT_INTERVAL_SECONDS);
        installDeletionPurgeJob(app, { config, db: database.db, clock });
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

        return { shared, secondFactor, wallet, deposits, chainWithdrawals, chainJob, partnerTransfers, whcDeposits, signIn, membership, moderators, auth, mfa, passkeys, federation, security, recovery, notifications, account, deletion, payments, organizations, companySso, billing, operators, webhooks, payouts, people };
      },
      guard: (root, r, needs) => installOperatorAccess(root, config, needs.sessions.service, r.operators),
      rootRoutes: async (root) => {
        await root.register(socialFormPostRoute);
      },
      routes: async (v3, r, needs) => {
        const { auth, recovery, signIn, mfa, passkeys, federation, security, account, deletion, notifications, payments, billing, wallet, deposits, chainWithdrawals, chainJob, whcDeposits, partnerTransfers, payouts, organizations, membership, moderators, operators, companySso, webhooks, people } = r;
        await v3.register(authRoutes(config, auth, recovery));
        await v3.register(signInRoutes(config, signIn));
        await v3.register(mfaRoutes(config, mfa));
        await v3.register(passkeyRoutes(config, passkeys));
        await v3.register(federationRoutes(config, federation));
        await v3.register(securityRoutes(config, security));
        await v3.register(accountRoutes(config, database.db, clock, needs.sessions.service, { account, deletion }));
        await v3.register(notificationRoutes(notifications));
        await v3.register(supportChatRoutes(config, (userId, product) => billing.productPlan(userId, product)));
        await v3.register(sandboxRoutes(payments.sandbox, limiter));
        await v3.register(billingRoutes(config, billing, payments.stripe));
        await v3.register(walletRoutes(wallet, deposits, chainWithdrawals, () => chainJob.kick(), whcDeposits, partnerTransfers));
        await v3.register(payoutRoutes(config, payouts, needs.oauth.clientTokens, limiter));
        await v3.register(organizationRoutes(config, organizations, limiter));
        await v3.register(membershipRoutes(config, membership));
        await v3.register(moderatorRoutes(config, moderators, needs.oauth.clientTokens));
        await v3.register(auditRoutes(createAuditService({ db: database.db, clock }), clock));
        await v3.register(operatorAdminRoutes(operators, clock));
        await v3.register(companySsoRoutes(config, companySso));
        await v3.register(webhookAdminRoutes(webhooks));
        // Organizations, billing and wallet in the operators' console.
        await v3.register(organizationAdminRoutes(organizationConsole({ db: database.db, sso: companySso })));
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
  if (config.DEV_OUTBOX) await app.register(outboxRoutes(database));
  await modules.run('rootRoutes', app);
  await app.register(
    async (v3: Http) => {
      await v3.register(resourcesRoutes);
      await v3.register(captchaRoutes(captcha));
      await modules.run('routes', v3);
      v3.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/v3' },
  );
  await installWebApp(app, config, deps.webDist);
  return app;
}

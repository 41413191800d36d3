import { z } from 'zod';
import { brands } from '@portal/contracts';
import { parseTrustProxy } from './platform/client-address';
import { parseDataKey } from './platform/data-protection';
import { parseEgressAllowList } from './platform/egress';
import { parseLimitOverrides } from './platform/rate-limit/rules';
import { parseSocialProviders, type SocialProviderSettings } from './social-config';
import { DEFAULT_BUGBOUNTY_URL, DEFAULT_PRODUCT_URLS, isPageUrl, parseProductUrls } from './config-links';

const list = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));
const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const url = z.url();
/** A page people are sent to from ours: an absolute http(s) URL. */
const pageUrl = z.string().refine(isPageUrl, 'must be an absolute http(s) URL');
/** A setting read by a parser that answers its value or what is wrong with it (the message the start stops with). */
const parsedBy = <T>(parse: (text: string) => { value: T } | { problem: string }) =>
  z.string().transform((value, context) => {
    const parsed = parse(value);
    if ('value' in parsed) return parsed.value;
    context.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  });
/** Product sites by product key (config-links.ts). */
const productUrls = parsedBy(parseProductUrls);
/** Allowances of the rate limits by rule name (platform/rate-limit/rules.ts), e.g. `signin:ip=200/600`. */
const limitOverrides = parsedBy(parseLimitOverrides);
/** Non-public addresses and CIDR ranges outgoing requests may reach (platform/egress/allow-list.ts). */
const egressAllowList = parsedBy(parseEgressAllowList);
/** A hop count or proxy addresses and CIDRs; a bare `true` stops the start with what to write instead. */
const trustProxy = parsedBy(parseTrustProxy);

/** Wallet limits in major units per currency, e.g. `USD=10000,VND=250000000,WHC=100000`. */
const walletLimits = (defaults: Record<'USD' | 'VND' | 'WHC', number>) =>
  z
    .string()
    .transform((value, context) => {
      const limits = { ...defaults };
      for (const pair of value.split(',').map((item) => item.trim()).filter(Boolean)) {
        const match = /^(USD|VND|WHC)=(\d{1,12})$/.exec(pair);
        if (!match) {
          context.addIssue({ code: 'custom', message: `"${pair}" is not CURRENCY=amount (USD, VND or WHC, whole major units)` });
          return z.NEVER;
        }
        limits[match[1] as keyof typeof limits] = Number(match[2]);
      }
      return limits;
    })
    .default(defaults);

/** Listen addresses only this machine can reach. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Every environment variable the server reads, with its default. Parsed once at start;
 * a bad value stops the process with a list of every offending variable.
 * docs/configuration.md lists every variable (packages/server/src/docs.test.ts keeps it in step).
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    /** How often the PostgreSQL LISTEN connection proves it is alive, and how long it may take to answer. */
    LISTEN_KEEPALIVE_MS: z.coerce.number().int().min(100).max(300_000).default(5000),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
    REDIS_KEY_PREFIX: z.string().max(64).default('portal:'),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
    MAIL_FROM: z.string().min(3).default('CyStack ID <no-reply@localhost>'),
    TRUST_PROXY: trustProxy.default(false),
    PLATFORM_HOSTS: list.default(['localhost', '127.0.0.1']),
    LOCKER_HOSTS: list.default(['locker.localhost']),
    PLATFORM_ORIGIN: url.optional(),
    LOCKER_ORIGIN: url.optional(),
    PLATFORM_API_BASE_URL: z.string().min(1).default('/v3'),
    LOCKER_API_BASE_URL: z.string().min(1).optional(),
    MAIN_SITE_URL: url.optional(),
    /** The password-manager brand's public website (its footer's link). */
    LOCKER_SITE_URL: pageUrl.default('https://locker.io'),
    VAULT_URL: url.optional(),
    ALLOWED_REDIRECT_ORIGINS: list.default([]),
    /** Product origins (beside the two brands') whose pages may call the API with cookies (CORS). */
    CORS_ORIGINS: list.pipe(z.array(url)).default([]),
    COOKIE_DOMAIN: z.string().optional(),
    RATE_LIMITS: limitOverrides.default({}),
    /** A session unused for this long is refused (beside its 30-day lifetime). */
    SESSION_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 60 * 60).default(7 * 24 * 60 * 60),
    /** How long a session that ended is kept (its IP, location, browser) before it is deleted; each device's newest stays. 0 keeps all. */
    SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
    /** Live sessions each node keeps in memory (see modules/sessions/identity-cache.ts); others cost one query. */
    SESSION_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
    /** Accounts that hold the operator role `owner` after each start (comma-separated; each must exist and be activated): how the first operator is made. */
    OPERATOR_EMAILS: list.pipe(z.array(z.email().transform((email) => email.toLowerCase()))).default([]),
    /** How recent a sign-in or re-authentication must be for a sensitive change (adding a passkey, an API key...). */
    REAUTH_MAX_AGE_SECONDS: z.coerce.number().int().min(5).max(24 * 60 * 60).default(5 * 60),
    SEED_DEMO: flag.optional(),
    CAPTCHA_PROVIDER: z.enum(['altcha', 'recaptcha']).default('altcha'),
    ALTCHA_HMAC_KEY: z.string().min(16).optional(),
    /**
     * PBKDF2 iterations per ALTCHA attempt; unset, the verifier's 1,000 (ALTCHA_DEFAULTS), a
     * solve of ~50 ms on a Node core. The tests, which solve hundreds, take 1.
     */
    ALTCHA_COST: z.coerce.number().int().min(1).max(100_000).optional(),
    RECAPTCHA_SITE_KEY: z.string().optional(),
    RECAPTCHA_SECRET: z.string().optional(),
    RECAPTCHA_VERSION: z.enum(['standard', 'enterprise']).optional(),
    WEB_DIST: z.string().min(1).optional(),
    /** `/metrics` on the main port only with `Authorization: Bearer <token>`. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** `/metrics` on this port of its own (same HOST), and not on the main port without the token. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    // Account self-service.
    /**
     * Key of secrets at rest (TOTP seeds, recovery-code hashes): 64 hex digits or base64 of 32
     * bytes. Unset: generated into DATA_DIR/data-encryption.key on first start (required with
     * DATABASE_URL in production, where every node must share it).
     */
    DATA_ENCRYPTION_KEY: z.string().refine((value) => parseDataKey(value) !== null, 'must be 32 bytes as 64 hex digits or base64').optional(),
    /** Chatwoot identity validation: HMAC-SHA256 key of the support-chat inbox. Unset turns the chat identity calls off (404). */
    CHATWOOT_HMAC_SECRET: z.string().min(16).optional(),
    CHATWOOT_BASE_URL: url.optional(),
    CHATWOOT_WEBSITE_TOKEN: z.string().min(1).optional(),
    /** The bug-bounty product's origin: where program and report notifications lead. */
    BUGBOUNTY_URL: url.optional(),
    /** Product cards' links, `product=url` comma-separated; each product not named keeps its public site (config-links.ts). */
    PRODUCT_URLS: productUrls.default({}),
    /** Terms of Service and Privacy Policy of the platform brand (sign-up form, footer). */
    TERMS_URL: pageUrl.default(brands.platform.legal.terms),
    PRIVACY_URL: pageUrl.default(brands.platform.legal.privacy),
    /** The same for the password-manager brand. */
    LOCKER_TERMS_URL: pageUrl.default(brands.locker.legal.terms),
    LOCKER_PRIVACY_URL: pageUrl.default(brands.locker.legal.privacy),
    /** How often the purge of accounts past their deletion date runs; 0 turns the job off on this node. */
    DELETION_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(7 * 24 * 60 * 60).default(3600),
    /** How often this node delivers sign-in security alerts left over (a node died, SMTP failed); 0 turns the sweep off on this node. */
    SECURITY_ALERT_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(24 * 60 * 60).default(30),
    /** How long a node holds the security alerts it claimed before another may take them over: above SMTP's timeouts (50 s). */
    SECURITY_ALERT_LEASE_SECONDS: z.coerce.number().int().min(1).max(60 * 60).default(120),
    /** How often this node looks for webhook deliveries that are due (modules/webhooks); 0 turns delivery off on this node. */
    WEBHOOK_DELIVERY_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    // The OpenID Connect provider (modules/oauth).
    /** The products' client file (first-party clients); unset: the checked-in modules/oauth/first-party-clients.json. */
    OAUTH_CLIENTS_FILE: z.string().min(1).optional(),
    /**
     * How often this node reads the provider's signing keys again (a rotation, a dropped key).
     * At most 120: a rotated key is published 300 s before it signs (oauth/keys.ts), and every
     * node must list it by then.
     */
    OIDC_KEYS_RELOAD_SECONDS: z.coerce.number().int().min(1).max(120).default(60),
    /** Secrets of the first-party confidential clients, `client_id=secret` comma-separated (32+ characters each). */
    OAUTH_CLIENT_SECRETS: z
      .string()
      .transform((value, context) => {
        const secrets: Record<string, string> = {};
        for (const item of value.split(',').map((part) => part.trim()).filter(Boolean)) {
          const at = item.indexOf('=');
          const id = item.slice(0, at);
          const secret = item.slice(at + 1);
          if (at < 1 || secret.length < 32) {
            context.addIssue({ code: 'custom', message: 'each entry is client_id=secret with a secret of 32+ characters' });
            return z.NEVER;
          }
          secrets[id] = secret;
        }
        return secrets;
      })
      .default({}),
    // Billing.
    /** The payment processor: the built-in sandbox (default) or Stripe (needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET). */
    PAYMENTS_PROCESSOR: z.enum(['sandbox', 'stripe']).default('sandbox'),
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_...)').optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_/, 'must be a Stripe publishable key (pk_...)').optional(),
    STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, 'must be a webhook signing secret (whsec_...)').optional(),
    /** Another Stripe API address (a local test server); Stripe's own when unset. */
    STRIPE_API_URL: url.optional(),
    /** How often the renewal job runs on this node; 0 turns it off here. */
    /** The most one wallet transfer may move, per currency (major units). */
    WALLET_LIMIT_PER_TRANSFER: walletLimits({ USD: 10_000, VND: 250_000_000, WHC: 100_000 }),
    /** The most one person may send per currency and UTC day (major units). */
    WALLET_LIMIT_PER_DAY: walletLimits({ USD: 50_000, VND: 1_000_000_000, WHC: 500_000 }),
    // VND deposits by bank transfer (VietQR): all four set, or none (deposits off: 503 wallet.deposits_unavailable).
    /** The receiving bank's 6-digit NAPAS BIN (e.g. 970436 for Vietcombank). */
    VIETQR_BANK_BIN: z.string().regex(/^\d{6}$/, 'must be the bank\'s 6-digit NAPAS BIN').optional(),
    /** The receiving account's number. */
    VIETQR_ACCOUNT_NUMBER: z.string().regex(/^[0-9A-Za-z]{1,19}$/, 'must be 1 to 19 letters or digits').optional(),
    /** The receiving account's holder, as the bank shows it. */
    VIETQR_ACCOUNT_NAME: z.string().trim().min(1).max(70).optional(),
    /** Key of the bank notifications' HMAC-SHA256 signature (x-bank-signature). */
    BANK_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** How long a deposit order waits for its transfer. */
    WALLET_DEPOSIT_TTL_MINUTES: z.coerce.number().int().min(5).max(7 * 24 * 60).default(24 * 60),
    // Transfers to a partner exchange wallet (wallet/partner.ts): both set, or none (503 wallet.partner_unavailable).
    /** The partner exchange's transfer API (requests go to `<url>/transfers`). */
    PARTNER_EXCHANGE_URL: url.optional(),
    /** Key of the HMAC-SHA256 signatures both ways (our requests, the partner's callbacks); never logged. */
    PARTNER_EXCHANGE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** How often this node sends again the partner transfers the partner has not acknowledged; 0 turns it off here. */
    PARTNER_EXCHANGE_RETRY_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    // WHC withdrawals to BEP20 addresses: the three below set, or none (503 wallet.chain_unavailable).
    /** The chain's JSON-RPC URL (a BSC node). */
    WHC_CHAIN_RPC_URL: url.optional(),
    /** The WHC token contract (0x + 40 hex digits). */
    WHC_TOKEN_ADDRESS: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a contract address (0x and 40 hex digits)').optional(),
    /** The private key of the account holding the tokens sent out (0x + 64 hex digits); never logged. */
    WHC_SIGNER_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a private key (0x and 64 hex digits)').optional(),
    /** The token's decimals on chain (the ledger keeps WHC with 8). */
    WHC_TOKEN_DECIMALS: z.coerce.number().int().min(0).max(36).default(8),
    /** Blocks a transfer's block must have on top of it (itself included) before it is completed or failed. */
    WHC_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(1),
    /** How often this node sends pending withdrawals and follows their receipts; 0 turns it off here. */
    WHC_CHAIN_POLL_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    /** Gas limit of a token transfer (not estimated: a transfer that will revert is still sent, and fails on chain). */
    WHC_TRANSFER_GAS: z.coerce.number().int().min(21_000).max(10_000_000).default(150_000),
    // WHC deposits (wallet/whc-deposits.ts): on with WHC_CHAIN_RPC_URL, WHC_TOKEN_ADDRESS and this key.
    /** The extended public key (xpub, BIP-32) deposit addresses are derived from: child i is person i's address; no private key on the server. */
    WHC_DEPOSIT_XPUB: z.string().trim().regex(/^[xt]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/, 'must be an extended public key (xpub...)').optional(),
    /** The block the deposit follower starts at on its first run (default: the chain's head then). */
    WHC_DEPOSIT_START_BLOCK: z.coerce.number().int().min(0).optional(),
    /** The most blocks one poll of the deposit follower asks logs for (eth_getLogs range); more than WHC_CONFIRMATIONS. */
    WHC_DEPOSIT_SCAN_BLOCKS: z.coerce.number().int().min(2).max(100_000).default(1000),
    /** How often this node's payout job looks for work (it pays only on the 10th, UTC); 0 turns it off here. */
    PAYOUT_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(24 * 60 * 60).default(3600),
    /** Tests only (refused in production): the date (YYYY-MM-DD) the payout job runs for, instead of today. */
    PAYOUT_TEST_DATE: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').optional(),
    BILLING_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(24 * 60 * 60).default(300),
    /** How often this node sends receipts left over (a node that died before sending, a failed SMTP's retries); 0 turns it off here. */
    BILLING_RECEIPT_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(24 * 60 * 60).default(60),
    /** Days after a failed renewal to try again, one entry per retry; after the last the subscription is cancelled. */
    BILLING_RETRY_DAYS: list.transform((values) => values.map(Number)).pipe(z.array(z.number().int().min(1).max(60))).default([1, 3, 7]),
    /** Key of AppSumo license codes (HMAC); unset: derived from the data key. */
    APPSUMO_LICENSE_SECRET: z.string().min(16).optional(),
    /** DNS server(s) company SSO asks for domain verification TXT records (`host` or `host:port`, comma-separated); unset: the system's. */
    COMPANY_SSO_DNS_SERVER: list.default([]),
    /** Requests to URLs that someone sets may reach loopback (and plain http there): default outside production only; refused in production. */
    EGRESS_ALLOW_LOOPBACK: flag.optional(),
    /** Non-public addresses (IPs and CIDR ranges, comma-separated) that requests to URLs someone sets may reach, production included: a receiver in the operator's own network. Empty: none. */
    EGRESS_ALLOW_HOSTS: egressAllowList.default([]),
  })
  .transform((env) => {
    const port = env.PORT;
    const platformOrigin = env.PLATFORM_ORIGIN ?? `http://localhost:${port}`;
    const lockerOrigin = env.LOCKER_ORIGIN ?? `http://locker.localhost:${port}`;
    return {
      ...env,
      PLATFORM_ORIGIN: platformOrigin,
      LOCKER_ORIGIN: lockerOrigin,
      LOCKER_API_BASE_URL: env.LOCKER_API_BASE_URL ?? `${lockerOrigin}/v3`,
      MAIN_SITE_URL: env.MAIN_SITE_URL ?? platformOrigin,
      // No vault runs beside the portal by default: the password-manager brand's own home, not a 404.
      VAULT_URL: env.VAULT_URL ?? `${lockerOrigin}/`,
      PRODUCT_URLS: { ...DEFAULT_PRODUCT_URLS, ...env.PRODUCT_URLS, bugbounty: env.BUGBOUNTY_URL ?? env.PRODUCT_URLS.bugbounty ?? DEFAULT_BUGBOUNTY_URL },
      SEED_DEMO: env.SEED_DEMO ?? env.NODE_ENV !== 'production',
      EGRESS_ALLOW_LOOPBACK: env.EGRESS_ALLOW_LOOPBACK ?? env.NODE_ENV !== 'production',
      // Mail kept in the database and readable by anyone who reaches the port: only for a
      // developer's own machine.
      DEV_OUTBOX: env.NODE_ENV !== 'production' && !env.SMTP_URL && LOOPBACK_HOSTS.has(env.HOST),
      ALTCHA_HMAC_KEY: env.ALTCHA_HMAC_KEY,
    };
  });

/** The settings, with the social providers that have credentials (social-config.ts). */
export type Config = z.infer<typeof envSchema> & { socialProviders: SocialProviderSettings[] };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
  }
}

/** Parse the environment; throws ConfigError naming every bad variable at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(defined);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const social = parseSocialProviders(defined);
  const config: Config = { ...parsed.data, socialProviders: social.providers };
  const problems: string[] = [...social.problems];
  if (config.NODE_ENV === 'production' && !config.ALTCHA_HMAC_KEY && config.CAPTCHA_PROVIDER === 'altcha') {
    problems.push('ALTCHA_HMAC_KEY: required in production');
  }
  if (config.NODE_ENV === 'production' && config.PAYOUT_TEST_DATE) problems.push('PAYOUT_TEST_DATE: for tests only, refused in production');
  if (config.NODE_ENV === 'production' && config.EGRESS_ALLOW_LOOPBACK) problems.push('EGRESS_ALLOW_LOOPBACK: refused in production (outgoing requests never reach loopback there)');
  if (config.NODE_ENV === 'production' && config.DATABASE_URL && !config.DATA_ENCRYPTION_KEY) {
    problems.push('DATA_ENCRYPTION_KEY: required with DATABASE_URL in production (every node must share it; generate one with `openssl rand -hex 32`)');
  }
  if (config.CAPTCHA_PROVIDER === 'recaptcha' && !config.RECAPTCHA_SECRET) {
    problems.push('RECAPTCHA_SECRET: required when CAPTCHA_PROVIDER=recaptcha');
  }
  if (Boolean(config.CHATWOOT_BASE_URL) !== Boolean(config.CHATWOOT_WEBSITE_TOKEN)) {
    problems.push('CHATWOOT_BASE_URL, CHATWOOT_WEBSITE_TOKEN: set both or neither');
  }
  if (config.PAYMENTS_PROCESSOR === 'stripe' && (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET)) {
    problems.push('STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: required when PAYMENTS_PROCESSOR=stripe');
  }
  const deposits = [config.VIETQR_BANK_BIN, config.VIETQR_ACCOUNT_NUMBER, config.VIETQR_ACCOUNT_NAME, config.BANK_WEBHOOK_SECRET];
  if (deposits.some(Boolean) && !deposits.every(Boolean)) {
    problems.push('VIETQR_BANK_BIN, VIETQR_ACCOUNT_NUMBER, VIETQR_ACCOUNT_NAME, BANK_WEBHOOK_SECRET: set all four (bank deposits on) or none');
  }
  if (Boolean(config.PARTNER_EXCHANGE_URL) !== Boolean(config.PARTNER_EXCHANGE_SECRET)) {
    problems.push('PARTNER_EXCHANGE_URL, PARTNER_EXCHANGE_SECRET: set both (transfers to a partner exchange wallet on) or neither');
  }
  // The chain and the token, with the signer key (withdrawals), the deposit key (deposits), or both.
  const chain = [config.WHC_CHAIN_RPC_URL, config.WHC_TOKEN_ADDRESS];
  const chainUsers = [config.WHC_SIGNER_KEY, config.WHC_DEPOSIT_XPUB];
  if ((chain.some(Boolean) || chainUsers.some(Boolean)) && !(chain.every(Boolean) && chainUsers.some(Boolean))) {
    problems.push('WHC_CHAIN_RPC_URL, WHC_TOKEN_ADDRESS, WHC_SIGNER_KEY: set all three (WHC withdrawals to BEP20 addresses on) or none; WHC_DEPOSIT_XPUB (WHC deposits on) needs WHC_CHAIN_RPC_URL and WHC_TOKEN_ADDRESS too');
  }
  if (config.WHC_DEPOSIT_SCAN_BLOCKS <= config.WHC_CONFIRMATIONS) {
    problems.push('WHC_DEPOSIT_SCAN_BLOCKS: must be more than WHC_CONFIRMATIONS (each poll scans the last unconfirmed blocks again)');
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}

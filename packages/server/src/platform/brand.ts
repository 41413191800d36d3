import { brands, type Brand, type BrandId, type RuntimeConfig, type SocialProviderId } from '@portal/contracts';
import type { Config } from '../config';

/** The brand a request is for, by its Host header (port ignored). Unknown hosts get the platform brand. */
export function brandForHost(config: Config, hostname: string | undefined): Brand {
  const host = (hostname ?? '').toLowerCase().replace(/:\d+$/, '');
  return config.LOCKER_HOSTS.includes(host) ? brands.locker : brands.platform;
}

/** The public origin a brand's pages and mailed links use. */
export function originFor(config: Config, brand: BrandId): string {
  return brand === 'locker' ? config.LOCKER_ORIGIN : config.PLATFORM_ORIGIN;
}

/** Origins a sign-in may hand the browser back to: our own plus the configured product origins. */
export function allowedRedirectOrigins(config: Config): string[] {
  return [...new Set([config.PLATFORM_ORIGIN, config.LOCKER_ORIGIN, new URL(config.MAIN_SITE_URL).origin, ...config.ALLOWED_REDIRECT_ORIGINS.map((o) => new URL(o).origin)])];
}

/** The social providers a brand shows: configured ones whose app is for this brand. */
export function socialProvidersFor(config: Config, brand: BrandId): SocialProviderId[] {
  return config.socialProviders.filter((provider) => provider.brands.includes(brand)).map((provider) => provider.id);
}

export function runtimeConfigFor(config: Config, brand: Brand): RuntimeConfig {
  return {
    brand: brand.id,
    apiBaseUrl: brand.id === 'locker' ? config.LOCKER_API_BASE_URL : config.PLATFORM_API_BASE_URL,
    vaultUrl: config.VAULT_URL,
    mainSiteUrl: brand.id === 'locker' ? config.LOCKER_SITE_URL : config.MAIN_SITE_URL,
    // Every product has a link (config-links.ts gives each a public site by default): no card is a dead end.
    productLinks: { pwdmanager: config.VAULT_URL, whitehub: config.MAIN_SITE_URL, ...config.PRODUCT_URLS },
    termsUrl: brand.id === 'locker' ? config.LOCKER_TERMS_URL : config.TERMS_URL,
    privacyUrl: brand.id === 'locker' ? config.LOCKER_PRIVACY_URL : config.PRIVACY_URL,
    ...(config.CHATWOOT_BASE_URL && config.CHATWOOT_WEBSITE_TOKEN
      ? { chatwoot: { baseUrl: config.CHATWOOT_BASE_URL, websiteToken: config.CHATWOOT_WEBSITE_TOKEN } }
      : {}),
    captcha:
      config.CAPTCHA_PROVIDER === 'recaptcha'
        ? { provider: 'recaptcha', siteKey: config.RECAPTCHA_SITE_KEY, version: config.RECAPTCHA_VERSION }
        : { provider: 'altcha' },
    dev: config.DEV_OUTBOX,
    allowedRedirectOrigins: allowedRedirectOrigins(config),
    ...(config.COOKIE_DOMAIN ? { cookieDomain: config.COOKIE_DOMAIN } : {}),
    socialProviders: socialProvidersFor(config, brand.id),
  };
}

import type { SocialProviderId } from './federation/providers';
import type { BrandId } from './brands';
import type { Language } from './constants';

/**
 * What the server tells the web app about the deployment, embedded in the HTML shell as
 * `<script id="portal-config" type="application/json">` so it is there before any script runs.
 */
export interface RuntimeConfig {
  brand: BrandId;
  /** Base of the `/v3` API for this brand (the locker brand has its own API host). */
  apiBaseUrl: string;
  /** Where the locker brand's logo links: the vault address on the main host. */
  vaultUrl: string;
  /** The brand's public website, the footer's link: MAIN_SITE_URL, or LOCKER_SITE_URL on the password-manager brand. */
  mainSiteUrl: string;
  /** Hosts the product family lives on, for product links and notification routing (`bugbounty`: programs and reports). */
  productLinks: Record<string, string>;
  /** The brand's Terms of Service and Privacy Policy (absolute URLs on the company's public site by default). */
  termsUrl: string;
  privacyUrl: string;
  /** The support-chat widget (Chatwoot), when configured; its user comes from GET /sso/me/chatwoot. */
  chatwoot?: { baseUrl: string; websiteToken: string };
  captcha: { provider: 'altcha' | 'recaptcha'; siteKey?: string; version?: 'standard' | 'enterprise' };
  /** True when the dev outbox is mounted (no SMTP, development, listening on localhost): every page says so in a banner. */
  dev: boolean;
  /** Origins a sign-in may hand the browser back to (service and redirect URLs). */
  allowedRedirectOrigins: string[];
  /**
   * COOKIE_DOMAIN when set: the display-name and language cookies are written for it, so the
   * app must name it to delete them (a cookie with a domain is not removed without one).
   */
  cookieDomain?: string;
  /** Social sign-in providers this brand offers (those with credentials), in the order the buttons show. */
  socialProviders: SocialProviderId[];
  /**
   * The server's guess of this visitor's language (by IP, then Accept-Language), what
   * GET /resources/lang answers: start-up uses it when no `lang` cookie is set instead of
   * asking, which would hold the first paint for a round trip.
   */
  language?: Language;
}

export const RUNTIME_CONFIG_ELEMENT_ID = 'portal-config';
export const CSP_NONCE_META = 'csp-nonce';

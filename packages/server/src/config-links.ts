import { isInnerService, isServiceScope, serviceCatalogue, type InnerService, type ServiceScope } from '@portal/contracts';

/**
 * Where the pages send people outside the portal: each product's card on Home and Explore,
 * and the Terms of Service and Privacy Policy of the sign-up form and the footer. Every
 * default is a public page that exists (the Terms and Privacy defaults are the brands' own,
 * contracts/brands.ts), so no link is a dead end before anyone configures one; PRODUCT_URLS, TERMS_URL, PRIVACY_URL (platform brand) and LOCKER_TERMS_URL,
 * LOCKER_PRIVACY_URL (password-manager brand) replace them.
 */
export type ProductKey = ServiceScope | InnerService;

/**
 * The products' public sites. The password manager, the platform and the bug-bounty product
 * are not here: their links come from VAULT_URL, MAIN_SITE_URL and BUGBOUNTY_URL (config.ts).
 */
export const DEFAULT_PRODUCT_URLS: Partial<Record<ProductKey, string>> = {
  pwdmanager_enterprise: 'https://locker.io',
  secret: 'https://locker.io/secrets',
  whitehub_news: 'https://whitehub.net',
  safechain: 'https://cystack.net',
  vulnscan: 'https://cystack.net',
  endpoint: 'https://cystack.net',
  trustcenter: 'https://cystack.net',
};

/** The bug-bounty product's public site, when BUGBOUNTY_URL names no other. */
export const DEFAULT_BUGBOUNTY_URL = 'https://whitehub.net';


/** An absolute http(s) URL: a link people follow from the page (no javascript:, data: or relative ones). */
export function isPageUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * PRODUCT_URLS: `product=url` pairs, comma-separated (`secret=https://locker.io/secrets`).
 * Answers the parsed pairs or why the value is refused (the start stops with it).
 */
export function parseProductUrls(value: string): { value: Partial<Record<ProductKey, string>> } | { problem: string } {
  const urls: Partial<Record<ProductKey, string>> = {};
  for (const pair of value.split(',').map((item) => item.trim()).filter(Boolean)) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    const url = pair.slice(at + 1).trim();
    if (at < 1 || !(isServiceScope(key) || isInnerService(key))) {
      return { problem: `"${pair}" names no product; write product=url with one of ${Object.keys(serviceCatalogue).join(', ')}` };
    }
    if (!isPageUrl(url)) return { problem: `"${pair}": ${key}'s URL must be an absolute http(s) URL` };
    urls[key] = url;
  }
  return { value: urls };
}

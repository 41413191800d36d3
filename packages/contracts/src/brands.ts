/**
 * The two brands, chosen by the Host header. Hosts and API base URLs are configuration
 * (server config); what is here is what does not vary by deployment.
 */
export const brandIds = ['platform', 'locker'] as const;
export type BrandId = (typeof brandIds)[number];

export interface Brand {
  id: BrandId;
  /** Document title before any script runs. */
  title: string;
  /** The brand's name in the pages' copy ("Locker website", "Your Locker account"). */
  name: string;
  /** <meta name="theme-color"> and the browser chrome. */
  themeColor: string;
  favicon: string;
  /** Logo shown in the header on desktop and on mobile. */
  logo: { desktop: string; mobile: string };
  /** Service scope used when the entry names none or an unknown one. */
  defaultScope: import('./scopes').ServiceScope;
  /**
   * The company's public Terms of Service and Privacy Policy for this brand: the defaults of
   * the server's TERMS_URL/PRIVACY_URL (LOCKER_TERMS_URL/LOCKER_PRIVACY_URL) settings.
   */
  legal: { terms: string; privacy: string };
}

export const brands: Record<BrandId, Brand> = {
  platform: {
    id: 'platform',
    title: 'CyStack ID',
    name: 'CyStack',
    themeColor: '#1D4ED8',
    favicon: '/brand/platform/favicon.svg',
    logo: { desktop: '/brand/platform/logo.svg', mobile: '/brand/platform/logo-mark.svg' },
    defaultScope: 'whitehub',
    legal: { terms: 'https://cystack.net/terms-of-service', privacy: 'https://cystack.net/privacy' },
  },
  locker: {
    id: 'locker',
    title: 'Locker ID',
    name: 'Locker',
    themeColor: '#268334',
    favicon: '/brand/locker/favicon.svg',
    logo: { desktop: '/brand/locker/logo.svg', mobile: '/brand/locker/logo-mark.svg' },
    defaultScope: 'pwdmanager',
    legal: { terms: 'https://locker.io/terms', privacy: 'https://locker.io/privacy' },
  },
};

export function isBrandId(value: unknown): value is BrandId {
  return typeof value === 'string' && (brandIds as readonly string[]).includes(value);
}

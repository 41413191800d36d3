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
  /** <meta name="theme-color"> and the browser chrome. */
  themeColor: string;
  favicon: string;
  /** Logo shown in the header on desktop and on mobile. */
  logo: { desktop: string; mobile: string };
  /** Service scope used when the entry names none or an unknown one. */
  defaultScope: import('./scopes').ServiceScope;
}

export const brands: Record<BrandId, Brand> = {
  platform: {
    id: 'platform',
    title: 'CyStack ID',
    themeColor: '#1D4ED8',
    favicon: '/brand/platform/favicon.svg',
    logo: { desktop: '/brand/platform/logo.svg', mobile: '/brand/platform/logo-mark.svg' },
    defaultScope: 'whitehub',
  },
  locker: {
    id: 'locker',
    title: 'Locker ID',
    themeColor: '#268334',
    favicon: '/brand/locker/favicon.svg',
    logo: { desktop: '/brand/locker/logo.svg', mobile: '/brand/locker/logo-mark.svg' },
    defaultScope: 'pwdmanager',
  },
};

export function isBrandId(value: unknown): value is BrandId {
  return typeof value === 'string' && (brandIds as readonly string[]).includes(value);
}

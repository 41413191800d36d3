/**
 * Service scopes: the `SERVICE_SCOPE` (and, for the platform scope, `INNER_SERVICE`)
 * entry values. Each chooses the displayed service name, the signup blurb, the intro
 * slides and the theme. Copy lives in the web app's i18n files under
 * `scopes.<id>.blurb` and `scopes.<id>.slides.<n>`; names are product names and not translated.
 */
export const serviceScopes = [
  'pwdmanager',
  'pwdmanager_enterprise',
  'secret',
  'bugbounty',
  'whitehub_news',
  'safechain',
  'whitehub',
] as const;
export type ServiceScope = (typeof serviceScopes)[number];

export const innerServices = ['vulnscan', 'endpoint', 'trustcenter'] as const;
export type InnerService = (typeof innerServices)[number];

export const themeIds = ['locker', 'whitehub', 'safechain', 'platform'] as const;
export type ThemeId = (typeof themeIds)[number];

/** Theme accents. The primary colour of every theme is a blue; the accent is per product. */
export const themes: Record<ThemeId, { accent: string; primary: string }> = {
  locker: { accent: '#268334', primary: '#1D4ED8' },
  whitehub: { accent: '#0B63E5', primary: '#1D4ED8' },
  safechain: { accent: '#7C3AED', primary: '#1D4ED8' },
  platform: { accent: '#1D4ED8', primary: '#1D4ED8' },
};

export interface ServiceEntry {
  name: string;
  theme: ThemeId;
  /** How many intro slides the scope has (`scopes.<id>.slides.0..n-1`). */
  slides: number;
  /** Signup offer shown beside the form, if any. */
  offer?: 'trial' | 'free_project';
}

export const serviceCatalogue: Record<ServiceScope | InnerService, ServiceEntry> = {
  pwdmanager: { name: 'Locker Password Manager', theme: 'locker', slides: 3, offer: 'trial' },
  pwdmanager_enterprise: { name: 'Locker Password Manager for Business', theme: 'locker', slides: 3, offer: 'trial' },
  secret: { name: 'Locker Secrets Manager', theme: 'locker', slides: 2, offer: 'free_project' },
  bugbounty: { name: 'WhiteHub Bug Bounty', theme: 'whitehub', slides: 3 },
  whitehub_news: { name: 'WhiteHub News', theme: 'whitehub', slides: 2 },
  safechain: { name: 'SafeChain', theme: 'safechain', slides: 3 },
  whitehub: { name: 'CyStack Platform', theme: 'platform', slides: 3 },
  vulnscan: { name: 'CyStack Vulnerability Scanner', theme: 'platform', slides: 2 },
  endpoint: { name: 'CyStack Endpoint', theme: 'platform', slides: 2 },
  trustcenter: { name: 'CyStack Trust Center', theme: 'platform', slides: 2 },
};

export function isServiceScope(value: unknown): value is ServiceScope {
  return typeof value === 'string' && (serviceScopes as readonly string[]).includes(value);
}
export function isInnerService(value: unknown): value is InnerService {
  return typeof value === 'string' && (innerServices as readonly string[]).includes(value);
}

/**
 * The service an entry shows: the inner service when the scope is the platform's and
 * the inner value is known, else the scope, else the brand's default. Unknown values
 * fall back silently, never an error.
 */
export function resolveService(
  scope: unknown,
  inner: unknown,
  fallback: ServiceScope,
): { scope: ServiceScope; key: ServiceScope | InnerService; entry: ServiceEntry } {
  const chosen = isServiceScope(scope) ? scope : fallback;
  const key = chosen === 'whitehub' && isInnerService(inner) ? inner : chosen;
  return { scope: chosen, key, entry: serviceCatalogue[key] };
}

/** Entry query parameters kept in cookies for `entryCookieMaxAgeSeconds`. */
export const entryParams = [
  'SERVICE_SCOPE',
  'INNER_SERVICE',
  'SERVICE_URL',
  'REDIRECT_URL',
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
export type EntryParam = (typeof entryParams)[number];

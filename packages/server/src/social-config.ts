import { socialProviderIds, type BrandId, type SocialProviderId } from '@portal/contracts';

/**
 * How the portal talks to each social provider: plain OAuth 2.0 with a profile API (GitHub,
 * Facebook, through arctic) or OpenID Connect by discovery (Google, Microsoft, Apple, VinCSS,
 * through openid-client). Every address can be replaced, so tests and on-premise installs
 * point at their own servers.
 */
export type SocialProviderSettings =
  | { id: SocialProviderId; kind: 'oauth2'; brands: BrandId[]; clientId: string; clientSecret: string; authorizationUrl: string; tokenUrl: string; apiUrl: string }
  | { id: SocialProviderId; kind: 'oidc'; brands: BrandId[]; clientId: string; clientSecret: string; issuer: string };

interface Defaults {
  kind: 'oauth2' | 'oidc';
  brands: BrandId[];
  issuer?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  apiUrl?: string;
}

const GITHUB = { kind: 'oauth2', authorizationUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', apiUrl: 'https://api.github.com' } as const;

/** The password-manager brand signs in with its own GitHub and VinCSS apps (`githubLocker`, `vincssLocker`). */
const DEFAULTS: Record<SocialProviderId, Defaults> = {
  google: { kind: 'oidc', brands: ['platform', 'locker'], issuer: 'https://accounts.google.com' },
  github: { ...GITHUB, brands: ['platform'] },
  githubLocker: { ...GITHUB, brands: ['locker'] },
  facebook: {
    kind: 'oauth2',
    brands: ['platform', 'locker'],
    authorizationUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v21.0/oauth/access_token',
    apiUrl: 'https://graph.facebook.com/v21.0',
  },
  apple: { kind: 'oidc', brands: ['platform', 'locker'], issuer: 'https://appleid.apple.com' },
  // Microsoft's issuer names the tenant (its `common` document cannot be checked): no default.
  microsoft: { kind: 'oidc', brands: ['platform', 'locker'] },
  vincss: { kind: 'oidc', brands: ['platform'] },
  vincssLocker: { kind: 'oidc', brands: ['locker'] },
};

/** `githubLocker` → `SOCIAL_GITHUB_LOCKER_`. */
export const socialEnvPrefix = (id: SocialProviderId) => `SOCIAL_${id.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}_`;

const isUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * The providers with credentials (`SOCIAL_<ID>_CLIENT_ID` and `_CLIENT_SECRET`); a provider
 * without them is hidden. Problems name the variable.
 */
export function parseSocialProviders(env: Record<string, string | undefined>): { providers: SocialProviderSettings[]; problems: string[] } {
  const providers: SocialProviderSettings[] = [];
  const problems: string[] = [];
  for (const id of socialProviderIds) {
    const prefix = socialEnvPrefix(id);
    const read = (name: string) => env[`${prefix}${name}`]?.trim() || undefined;
    const clientId = read('CLIENT_ID');
    const clientSecret = read('CLIENT_SECRET');
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      problems.push(`${prefix}CLIENT_ID, ${prefix}CLIENT_SECRET: set both or neither`);
      continue;
    }
    const defaults = DEFAULTS[id];
    const url = (name: string, fallback: string | undefined) => {
      const value = read(name) ?? fallback;
      if (!value) problems.push(`${prefix}${name}: required with ${prefix}CLIENT_ID`);
      else if (!isUrl(value)) problems.push(`${prefix}${name}: must be an http(s) URL`);
      return value ?? '';
    };
    if (defaults.kind === 'oidc') {
      providers.push({ id, kind: 'oidc', brands: defaults.brands, clientId, clientSecret, issuer: url('ISSUER', defaults.issuer) });
    } else {
      providers.push({
        id,
        kind: 'oauth2',
        brands: defaults.brands,
        clientId,
        clientSecret,
        authorizationUrl: url('AUTHORIZATION_URL', defaults.authorizationUrl),
        tokenUrl: url('TOKEN_URL', defaults.tokenUrl),
        apiUrl: url('API_URL', defaults.apiUrl),
      });
    }
  }
  return { providers, problems };
}

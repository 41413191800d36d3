// No zod here: the sign-in page's buttons read these at first paint.

/**
 * Social sign-in providers (the spec's product description, entities, permissions and call list). The password-manager brand has OAuth
 * apps of its own for GitHub and VinCSS (`githubLocker`, `vincssLocker`, the spec's names);
 * they show as GitHub and VinCSS.
 */
export const socialProviderIds = ['google', 'github', 'facebook', 'apple', 'microsoft', 'vincss', 'githubLocker', 'vincssLocker'] as const;
export type SocialProviderId = (typeof socialProviderIds)[number];

/** Display name and colour of each provider (its brand colour, used as an accent, never as text on white). */
export const SOCIAL_PROVIDERS: Record<SocialProviderId, { name: string; color: string }> = {
  google: { name: 'Google', color: '#4285F4' },
  github: { name: 'GitHub', color: '#24292F' },
  facebook: { name: 'Facebook', color: '#1877F2' },
  apple: { name: 'Apple', color: '#000000' },
  microsoft: { name: 'Microsoft', color: '#2F2F2F' },
  vincss: { name: 'VinCSS', color: '#D71920' },
  githubLocker: { name: 'GitHub', color: '#24292F' },
  vincssLocker: { name: 'VinCSS', color: '#D71920' },
};

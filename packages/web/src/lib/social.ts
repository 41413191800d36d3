import { companySsoEndpoints, socialEndpoints, type SocialProviderId, type SocialSignUpOffer } from '@portal/contracts';
import { call } from './api';

/**
 * A social sign-in leaves the site for the provider and comes back at /callback with nothing
 * of the page it started on: the query of that page (its `next`, the product's entry values)
 * and a sign-up offer wait in this tab's storage.
 */
const SEARCH_KEY = 'portal.social.search';
const OFFER_KEY = 'portal.social.offer';

function store(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // storage off: the sign-in still works, it just lands at home
  }
}

function recall(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Asks the server for the provider's page (it keeps state, nonce and PKCE in a cookie) and goes there. */
export async function startSocialSignIn(provider: SocialProviderId, intent: 'sign_in' | 'link', search: string, go: (url: string) => void = (url) => location.assign(url)): Promise<void> {
  const { url } = await call<typeof socialEndpoints.start>(socialEndpoints.start, { params: { provider }, body: { intent } }, { handle: [400, 403, 429] });
  store(SEARCH_KEY, search);
  go(url);
}

/**
 * Company SSO leaves the same way (to the organization's identity provider, back at
 * /sso/redirect): the server answers the IdP's address for an SSO identifier or a work email.
 */
export async function startCompanySso(identifier: string, search: string, go: (url: string) => void = (url) => location.assign(url)): Promise<void> {
  const { url } = await call<typeof companySsoEndpoints.start>(companySsoEndpoints.start, { body: { identifier } }, { handle: [400, 429] });
  store(SEARCH_KEY, search);
  go(url);
}

/** The query of the page the sign-in started on ('' when unknown). */
export const recalledSocialSearch = () => recall(SEARCH_KEY) ?? '';

export const rememberSignUpOffer = (offer: SocialSignUpOffer | null) => store(OFFER_KEY, offer ? JSON.stringify(offer) : null);

export function recalledSignUpOffer(): SocialSignUpOffer | null {
  try {
    const value = recall(OFFER_KEY);
    return value ? (JSON.parse(value) as SocialSignUpOffer) : null;
  } catch {
    return null;
  }
}

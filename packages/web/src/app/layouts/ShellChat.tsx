import { useEffect } from 'react';
import { supportChatEndpoints, type BrandId, type RuntimeConfig } from '@portal/contracts';
import { call } from '../../lib/api';
import { readCspNonce } from '../../lib/csp-nonce';
import { i18n } from '../../lib/i18n';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { peekSessionUser, useAuthState } from '../../lib/session';

/**
 * The support chat (Chatwoot). Loaded only when the deployment configures it
 * (RuntimeConfig.chatwoot), only in the signed-in shell, and told who the user is from
 * the server's identity-validation answer. Every failure is ignored: the chat is a help,
 * never a reason for a page to break. Signing out clears its user (the spec's state rules).
 */

export interface ChatwootSettings {
  baseUrl: string;
  websiteToken: string;
}

interface ChatwootGlobals {
  chatwootSDK?: { run(options: { websiteToken: string; baseUrl: string }): void };
  $chatwoot?: {
    setUser(identifier: string, attributes: { name?: string; email?: string; identifier_hash?: string }): void;
    setLocale(locale: string): void;
    reset(): void;
  };
  chatwootSettings?: { locale?: string; position?: 'left' | 'right'; type?: 'standard' | 'expanded_bubble'; hideMessageBubble?: boolean };
}

const chatWindow = () => window as unknown as Window & ChatwootGlobals;

/** The chat settings of the deployment (RuntimeConfig.chatwoot), if complete and an http(s) address. */
export function chatwootSettings(config: RuntimeConfig): ChatwootSettings | null {
  const value: Partial<ChatwootSettings> | null | undefined = config.chatwoot;
  if (!value || typeof value.baseUrl !== 'string' || typeof value.websiteToken !== 'string' || !value.baseUrl || !value.websiteToken) return null;
  try {
    const url = new URL(value.baseUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  } catch {
    return null;
  }
  return { baseUrl: value.baseUrl.replace(/\/+$/, ''), websiteToken: value.websiteToken };
}

/** The password-manager API's product prefix: `/{product}_platform/pm/users/me/chatwoot`. */
export const LOCKER_PLATFORM_PRODUCT = 'cystack';

/** Where the support-chat identity comes from: the locker product's own call in the locker brand, the portal's otherwise. */
export function fetchChatwootIdentity(brand: BrandId) {
  return brand === 'locker'
    ? call(supportChatEndpoints.productIdentity, { params: { product: LOCKER_PLATFORM_PRODUCT } }, { handle: 'all' })
    : call(supportChatEndpoints.identity, {}, { handle: 'all' });
}

let loading: Promise<void> | null = null;

/** Adds the SDK script once and runs it; resolves when the widget says it is ready. */
function loadChatwoot(settings: ChatwootSettings): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const globals = chatWindow();
    if (globals.$chatwoot) {
      resolve();
      return;
    }
    globals.chatwootSettings = { locale: i18n.language, position: 'right', type: 'standard' };
    window.addEventListener('chatwoot:ready', () => resolve(), { once: true });
    const script = document.createElement('script');
    script.src = `${settings.baseUrl}/packs/js/sdk.js`;
    script.async = true;
    const nonce = readCspNonce();
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      try {
        globals.chatwootSDK?.run({ websiteToken: settings.websiteToken, baseUrl: settings.baseUrl });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    script.onerror = () => reject(new Error('the support chat could not be loaded'));
    document.body.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The user's chat identity, told to the widget; failures ignored (the spec's call list). */
async function identify(brand: BrandId): Promise<void> {
  const identity = await fetchChatwootIdentity(brand);
  const chat = chatWindow().$chatwoot;
  if (!chat) return;
  chat.setUser(identity.identifier, { name: identity.name, email: identity.email, identifier_hash: identity.user_hash });
  if (identity.language_override) chat.setLocale(identity.language_override);
}

/** Forget the chat's user (sign-out). */
export function resetChatUser(): void {
  try {
    chatWindow().$chatwoot?.reset();
  } catch {
    // the widget is someone else's code: nothing to do if it fails
  }
}

export function ShellChat() {
  const config = useRuntimeConfig();
  const settings = chatwootSettings(config);
  const { user } = useAuthState();
  const userId = user?.id ?? (user ? user.email : null);
  const baseUrl = settings?.baseUrl;
  const websiteToken = settings?.websiteToken;

  useEffect(() => {
    if (!baseUrl || !websiteToken || !userId) return;
    let current = true;
    loadChatwoot({ baseUrl, websiteToken })
      .then(() => (current ? identify(config.brand) : undefined))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [baseUrl, websiteToken, userId, config.brand]);

  // Signed out (logout, an expired session, account deletion): the chat forgets the user.
  const signedOut = user === null;
  useEffect(() => {
    if (signedOut && baseUrl) resetChatUser();
  }, [signedOut, baseUrl]);
  // ...also when the shell goes away because of it, before this component saw the change.
  useEffect(
    () => () => {
      if (baseUrl && peekSessionUser() === null) resetChatUser();
    },
    [baseUrl],
  );

  return null;
}

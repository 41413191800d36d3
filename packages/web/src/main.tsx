import './app/mantine-styles';
import { StrictMode, startTransition } from 'react';
import { DEFAULT_LANGUAGE } from '@portal/contracts';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { prefetchToasts, showToast } from './app/toasts';
import { prefetchBusyLoader } from './components/BusyGate';
import { createAppRouter, guardsSendAway } from './app/router';
import { configureApi } from './lib/api';
import { setCookieDomain } from './lib/cookies';
import { markVisited } from './lib/visit';
import { appState } from './lib/app-state';
import { exposeNonceToVitePreload, readCspNonce } from './lib/csp-nonce';
import { hasFirstScreen, routerSettled } from './lib/first-screen';
import { storeEntryParams } from './lib/entry-params';
import { initI18n } from './lib/i18n';
import { applyLanguage, followAccountLanguage, languageSources, resolveInitialLanguage } from './lib/language';
import { readRuntimeConfig } from './lib/runtime-config';
import { clearSession, setSignOutNavigator, setWhenFoundSignedIn } from './lib/session';

/**
 * Start-up, in order: what the server embedded (config, nonce), the API client that must
 * exist before any request, the router, and the language, which is settled
 * before the first paint so the page never flashes in the wrong one.
 */
async function start(): Promise<void> {
  const config = readRuntimeConfig();
  const nonce = readCspNonce();
  exposeNonceToVitePreload(nonce);
  storeEntryParams(location.search);
  appState.set({ dev: config.dev });
  setCookieDomain(config.cookieDomain);
  markVisited();

  // English until the visitor's language is known: a toast raised meanwhile is still text.
  initI18n(DEFAULT_LANGUAGE);

  // The navigate callbacks run only after a response arrives, by which time `router` exists.
  const navigate = (to: string) => void router.navigate(to);
  configureApi({ baseUrl: config.apiBaseUrl, notify: showToast, navigate, onUnauthorized: () => clearSession('expired') });
  setSignOutNavigator(navigate);

  // Creating the router starts the first navigation: the session check runs while the
  // language is being resolved, not after it.
  // The server's guess is in the page (config.language); the dev server's shell has none and asks.
  const initialLanguage = resolveInitialLanguage(languageSources(config.language)).then(applyLanguage);
  // A signed-in account's own language comes after that guess, never raced by it.
  setWhenFoundSignedIn((user) => initialLanguage.then(() => followAccountLanguage(user)));
  const router = createAppRouter();
  await initialLanguage;
  // The server-rendered first screen of /login stays until the live page is ready to replace it.
  const firstScreen = hasFirstScreen();
  if (firstScreen) await routerSettled(router);

  const root = createRoot(document.getElementById('root')!);
  const app = (
    <StrictMode>
      <AppProviders config={config} nonce={nonce}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  // Behind a first screen the page is on view already: React renders the live one in slices
  // (a transition), so the main thread stays free for input instead of one long task.
  if (firstScreen) startTransition(() => root.render(app));
  else root.render(app);
  // On the first interaction: the toast and busy-loader code, and from then on the link prefetch.
  const startLinkPrefetch = () => void import('./lib/link-prefetch').then(({ startLinkPrefetch }) => startLinkPrefetch(router, guardsSendAway), () => undefined);
  prefetchToasts(prefetchBusyLoader, startLinkPrefetch);
}

void start();

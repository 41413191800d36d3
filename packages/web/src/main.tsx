import './app/mantine-styles';
import { StrictMode, startTransition } from 'react';
import { DEFAULT_LANGUAGE } from '@portal/contracts';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/AppProviders';
import { prefetchToasts, showToast } from './app/toasts';
import { prefetchBusyLoader } from './components/BusyGate';
import { createAppNavigation, guardsSendAway } from './app/router';
import { RootRoute } from './app/RootRoute';
import { configureApi } from './lib/api';
import { setCookieDomain } from './lib/cookies';
import { markVisited } from './lib/visit';
import { appState } from './lib/app-state';
import { exposeNonceToVitePreload, readCspNonce } from './lib/csp-nonce';
import { hasFirstScreen, settleFirstLocation } from './lib/first-screen';
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

  const navigation = createAppNavigation();
  const navigate = (to: string) => navigation.navigate(to);
  configureApi({ baseUrl: config.apiBaseUrl, notify: showToast, navigate, onUnauthorized: () => clearSession('expired') });
  setSignOutNavigator(navigate);

  // The server's guess is in the page (config.language); the dev server's shell has none and asks.
  const initialLanguage = resolveInitialLanguage(languageSources(config.language)).then(applyLanguage);
  // A signed-in account's own language comes after that guess, never raced by it.
  setWhenFoundSignedIn((user) => initialLanguage.then(() => followAccountLanguage(user)));
  // Behind the server-rendered first screen of /login, the first navigation (session check,
  // guards, the page's code) starts now, while the language is being resolved, not after it.
  const firstScreen = hasFirstScreen();
  const settling = firstScreen ? settleFirstLocation(navigation.resolve) : undefined;
  await initialLanguage;
  // The first screen stays until the live page is ready to replace it.
  const resolved = await settling;

  const root = createRoot(document.getElementById('root')!);
  const app = (
    <StrictMode>
      <AppProviders config={config} nonce={nonce}>
        <BrowserRouter>
          <RootRoute navigation={navigation} resolved={resolved} />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>
  );
  // Behind a first screen the page is on view already: React renders the live one in slices
  // (a transition), so the main thread stays free for input instead of one long task.
  if (firstScreen) startTransition(() => root.render(app));
  else root.render(app);
  // On the first interaction: the toast and busy-loader code, and from then on the link prefetch.
  const startLinkPrefetch = () => void import('./lib/link-prefetch').then(({ startLinkPrefetch }) => startLinkPrefetch(navigation, guardsSendAway), () => undefined);
  prefetchToasts(prefetchBusyLoader, startLinkPrefetch);
}

void start();

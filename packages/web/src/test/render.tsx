import { cleanup, configure, render } from '@testing-library/react';
import { afterEach } from 'vitest';
import { MemoryRouter, useLocation, type Location, type RouteObject } from 'react-router';
import type { RuntimeConfig } from '@portal/contracts';
import { AppProviders } from '../app/AppProviders';
import { createAppNavigation } from '../app/router';
import { RootRoute } from '../app/RootRoute';
import { initI18n } from '../lib/i18n';
import { currentUser as sessionUser, setSessionUser, type SessionUser } from '../lib/session';

// Pages load their code and text as lazy chunks: with every test file running at once on
// two cores, the default 1 s for findBy* is too tight to be reliable.
configure({ asyncUtilTimeout: 5000 });

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  setSessionUser(undefined);
});

export const testConfig: RuntimeConfig = {
  brand: 'platform',
  apiBaseUrl: 'https://api.test/v3',
  vaultUrl: 'https://vault.test/vault',
  mainSiteUrl: 'https://main.test',
  productLinks: {},
  termsUrl: 'https://main.test/terms',
  privacyUrl: 'https://main.test/privacy',
  captcha: { provider: 'altcha' },
  dev: false,
  allowedRedirectOrigins: [],
    socialProviders: [],
};

export const ada: SessionUser = { full_name: 'Ada Lovelace', email: 'ada@example.com', language: 'en', customer_language: 'en' };

interface RenderRoutesOptions {
  /** Who is signed in (null: nobody). */
  user?: SessionUser | null;
  /** Replaces `user`: the session source the guards ask. */
  currentUser?: () => Promise<SessionUser | null>;
  routes?: RouteObject[];
  config?: Partial<RuntimeConfig>;
}

/** Where the router is, and how to move it, as a test sees it. */
export interface TestRouter {
  state: { location: Location };
  navigate(to: string): void;
}

function LocationProbe({ into }: { into: TestRouter }) {
  into.state.location = useLocation();
  return null;
}

/** Render the app's real route table (or given routes) in memory at `path`. */
export function renderAt(path: string, { user = null, currentUser = sessionUser, routes, config }: RenderRoutesOptions = {}) {
  initI18n('en');
  setSessionUser(user);
  const navigation = createAppNavigation({ currentUser, routes });
  const router: TestRouter = { state: { location: { pathname: '', search: '', hash: '', state: null, key: '' } }, navigate: navigation.navigate };
  const view = render(
    <AppProviders config={{ ...testConfig, ...config }} env="test">
      <MemoryRouter initialEntries={[path]}>
        <RootRoute navigation={navigation} />
        <LocationProbe into={router} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, router, currentUser };
}

/** Where the router is now, as path plus query. */
export function locationOf(router: { state: { location: { pathname: string; search: string } } }): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

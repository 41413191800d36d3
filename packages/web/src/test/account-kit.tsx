import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/AppProviders';
import { configureApi, type ToastKind } from '../lib/api';
import { initI18n, loadAccountCatalogue } from '../lib/i18n';
import { applyLanguage } from '../lib/language';
import { testConfig } from './render';

/** A fake `/v3`: each call answered by `respond` (path, method, body) → [status, body]. */
export type FakeServer = (request: { path: string; method: string; body: unknown; search: string }) => [number, unknown?];

export interface AccountTestKit {
  toasts: { kind: ToastKind; message: string }[];
  requests: { path: string; method: string; body: unknown; search: string }[];
}

/** The account pages' world for a component test: API client, i18n with the account text, Mantine, query cache, a router. */
export async function setUpAccountTest(server: FakeServer, language: 'en' | 'vi' = 'en'): Promise<AccountTestKit> {
  const kit: AccountTestKit = { toasts: [], requests: [] };
  initI18n('en');
  configureApi({
    baseUrl: 'https://api.test/v3',
    fetch: async (url, init) => {
      const { pathname, search } = new URL(String(url));
      const path = pathname.replace(/^\/v3/, '');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body;
      kit.requests.push({ path, method, body, search });
      const [status, answer] = server({ path, method, body, search });
      return new Response(status === 204 || answer === undefined ? null : JSON.stringify(answer), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    },
    notify: (kind, message) => kit.toasts.push({ kind, message }),
    navigate: () => undefined,
    onUnauthorized: () => undefined,
  });
  await loadAccountCatalogue();
  await applyLanguage(language);
  return kit;
}

/** Render `ui` inside the app's providers, a fresh query cache and a memory router. */
export function renderAccount(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: ['/'] });
  return render(
    <AppProviders config={testConfig} env="test">
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppProviders>,
  );
}

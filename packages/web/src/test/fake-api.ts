import { configureApi, type ToastKind } from '../lib/api';

export interface FakeAnswer {
  status: number;
  body?: unknown;
}

type Handler = FakeAnswer | ((body: unknown) => FakeAnswer | Promise<FakeAnswer>);

export interface FakeApi {
  /** Every request: method, path under the API base, parsed JSON body. */
  calls: { method: string; path: string; body: unknown }[];
  toasts: { kind: ToastKind; message: string }[];
  navigations: string[];
  /** Answer `METHOD /path` (later calls replace earlier answers for the same route). */
  on(route: string, handler: Handler): void;
  callsTo(route: string): unknown[];
}

/**
 * The API client wired to an in-memory server for component tests: routes answer what the
 * test says; anything else is a 404. The spec's policy (toasts, redirects) is recorded.
 */
export function fakeApi(): FakeApi {
  const handlers = new Map<string, Handler>();
  const api: FakeApi = {
    calls: [],
    toasts: [],
    navigations: [],
    on: (route, handler) => void handlers.set(route, handler),
    callsTo: (route) => api.calls.filter((call) => `${call.method} ${call.path}` === route).map((call) => call.body),
  };
  configureApi({
    baseUrl: 'https://api.test/v3',
    notify: (kind, message) => api.toasts.push({ kind, message }),
    navigate: (to) => api.navigations.push(to),
    onUnauthorized: () => undefined,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const path = url.pathname.replace(/^\/v3/, '');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      api.calls.push({ method, path, body });
      const handler = handlers.get(`${method} ${path}`);
      const answer = !handler ? { status: 404, body: { code: 'not_found', message: 'Resource not found' } } : typeof handler === 'function' ? await handler(body) : handler;
      const text = answer.body === undefined ? null : JSON.stringify(answer.body);
      return new Response(answer.status === 204 ? null : text, { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    },
  });
  return api;
}

import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

/**
 * Runs before each web test file. The files share their worker (isolate: false in
 * vitest.config.ts), so that React, Mantine, Testing Library and happy-dom load once per worker
 * instead of once per file; this gives each file what a worker of its own gave it.
 *
 * The app's own modules are evaluated afresh for the file: its stores (session, app state,
 * toasts), the translator and its loaded catalogues, the API client's environment, the loaders'
 * caches, and the file's vi.mock of them (a module evaluated for an earlier file would keep that
 * file's mocks, or none). Packages under node_modules are not evaluated again: they are loaded by
 * Node itself, not by vitest's module runner, so they keep one instance per worker.
 */
vi.resetModules();

// What an earlier file left on the page and the globals: a new worker starts with a blank page at
// http://localhost:3000/, no cookies or storage, real timers and no stubbed globals.
cleanup();
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
window.history.replaceState(null, '', '/');
for (const pair of document.cookie.split(';')) {
  const name = pair.split('=')[0]!.trim();
  // happy-dom matches a deletion by name and path, so a host-only deletion also drops the cookie
  // a test wrote for the host's domain.
  if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
localStorage.clear();
sessionStorage.clear();
document.head.replaceChildren();
document.body.replaceChildren();
for (const element of [document.documentElement, document.body])
  for (const attribute of [...element.getAttributeNames()]) element.removeAttribute(attribute);
document.title = '';

// vitest runs without globals, so Testing Library cannot register its own cleanup after each test.
afterEach(() => {
  cleanup();
});

import type { LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium (Playwright's own browser download cannot work here). E2E_CHROMIUM
 * points elsewhere on other machines. Shared by the e2e config and the bench.
 */
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Chromium resolves *.localhost to loopback by itself; this makes sure, and keeps
  // `localhost` on IPv4 where the test server listens.
  '--host-resolver-rules=MAP localhost 127.0.0.1, MAP *.localhost 127.0.0.1',
];

export function chromiumLaunchOptions(): LaunchOptions {
  return { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };
}

import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium (Playwright's own browser download cannot work here); E2E_CHROMIUM points
 * elsewhere on other machines. Lighthouse measures the full browser people use.
 */
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

/**
 * The e2e tests' browser: Debian's chromium-headless-shell when it is there (scripts/
 * ensure-chromium.mjs installs it), as Playwright's own headless runs do. It took ~15 % less CPU
 * than full Chromium's new headless mode on the same specs, and a page handing a code to a
 * desktop app's private scheme (/callback-app) hung full Chromium's renderer until the test
 * timed out. Shared by the e2e config and the bench's page sections.
 */
export const E2E_CHROMIUM_PATH = process.env.E2E_CHROMIUM || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : CHROMIUM_PATH);

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
  return { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS };
}

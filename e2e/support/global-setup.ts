import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';
import { bundleServer } from '../../packages/server/test/server-bundle';
import { ensurePgliteTemplate } from './pglite-template';
import { copyWebBuild, startPortalServer } from './server';
import { startSmtpPeer, type SmtpPeer } from './smtp';

/** The server prints the seeded demo account's one-time password on its first start. */
async function demoAccountFromLog(logFile: string): Promise<{ email: string; password: string } | null> {
  // The log is piped to the file asynchronously; give the line a moment to land.
  for (let attempt = 0; attempt < 10; attempt++) {
    const match = /demo account created: (\S+) \/ (\S+) \(shown only this once\)/.exec(readFileSync(logFile, 'utf8'));
    if (match) return { email: match[1]!, password: match[2]! };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/**
 * Starts what every spec shares: the real server on a free port (PGlite in a temporary
 * folder) and, with E2E_SMTP=1, an SMTP peer the server mails to. Publishes their
 * addresses as E2E_* variables (read through e2e/support/env.ts) and returns the teardown.
 *
 * E2E_BASE_URL set beforehand means "use that running server" and starts nothing.
 */
/** Output folders (traces, failure screenshots) of runs a day old go; the recent ones stay for reading. */
function pruneOldRunOutputs(config: FullConfig): void {
  const own = config.projects[0]?.outputDir;
  if (!own) return;
  const parent = path.dirname(own);
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of existsSync(parent) ? readdirSync(parent) : []) {
    const folder = path.join(parent, name);
    const stat = statSync(folder, { throwIfNoEntry: false }); // another run may be removing it
    if (folder !== own && stat && stat.mtimeMs < dayAgo) rmSync(folder, { recursive: true, force: true });
  }
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  pruneOldRunOutputs(config);
  if (process.env.E2E_BASE_URL) {
    console.log(`[e2e] using the server at ${process.env.E2E_BASE_URL}`);
    return async () => {};
  }

  // Builds only when packages/web/dist is older than its sources (npm test built it already).
  ensureWebBuilt({ log: (message) => console.log(`[e2e] ${message}`) });

  process.env.E2E_PGLITE_TEMPLATE = ensurePgliteTemplate((message) => console.log(`[e2e] ${message}`));

  // This run's servers and operator commands start from one bundle.
  const bundled = Date.now();
  const removeBundle = await bundleServer();
  console.log(`[e2e] bundled the server in ${((Date.now() - bundled) / 1000).toFixed(1)} s`);

  let smtp: SmtpPeer | null = null;
  let mailDir: string | null = null;
  const env: Record<string, string> = {};
  if (process.env.E2E_SMTP === '1') {
    mailDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-mail-'));
    smtp = await startSmtpPeer(mailDir);
    env.SMTP_URL = smtp.url;
  }

  // One copy that every server of this run serves (startPortalServer).
  const webDist = await copyWebBuild();
  process.env.E2E_WEB_DIST = webDist;

  const started = Date.now();
  const server = await startPortalServer({ env }).catch(async (error: unknown) => {
    await smtp?.close();
    await removeBundle();
    await rm(webDist, { recursive: true, force: true });
    throw error;
  });
  console.log(`[e2e] server ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.platformUrl} and ${server.lockerUrl} (log: ${path.relative(process.cwd(), server.logFile)})`);

  const demo = await demoAccountFromLog(server.logFile);
  if (demo) {
    process.env.E2E_DEMO_EMAIL = demo.email;
    process.env.E2E_DEMO_PASSWORD = demo.password;
  } else {
    console.log('[e2e] no demo account in the server log: specs that need a signed-in user will skip');
  }

  process.env.E2E_BASE_URL = server.platformUrl;
  process.env.E2E_LOCKER_URL = server.lockerUrl;
  process.env.E2E_VAULT_URL = server.vaultUrl;
  if (mailDir) process.env.E2E_MAIL_DIR = mailDir;

  return async () => {
    await server.close();
    await smtp?.close();
    if (mailDir) await rm(mailDir, { recursive: true, force: true });
    await removeBundle();
    await rm(webDist, { recursive: true, force: true });
  };
}

import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';
import { bundleServer } from '../../packages/server/test/server-bundle';
import { ensurePgliteTemplate } from './pglite-template';
import { copyWebBuild, demoAccountFromLog, startPortalServer } from './server';
import { startSmtpPeer, type SmtpPeer } from './smtp';

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

/** The per-address rate limits at ten times their defaults (packages/server/src/platform/rate-limit/rules.ts). */
const PER_ADDRESS_ALLOWANCES = [
  'signin:ip=500/600',
  'signup:ip=100/3600',
  'code:send:ip=300/900',
  'recovery:ip=200/900',
  'username:check:ip=300/3600',
  'onpremise:ip=300/900',
  'org:link:ip=600/900',
  'sso:start:ip=300/900',
  'sso:acs:ip=300/900',
  'card:token:ip=500/3600',
  'trial:business:ip=200/3600',
].join(',');

/**
 * Starts what every spec shares: the real server on a free port (PGlite in a temporary
 * folder), the mail portal (a second server that sends its mail) and the SMTP peer it mails
 * to. Publishes their addresses as E2E_* variables (read through e2e/support/env.ts and
 * support/mail.ts) and returns the teardown.
 *
 * E2E_BASE_URL set beforehand means "use that running server" and starts nothing.
 */
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

  // The SMTP peer every spec reads mail from (support/mail.ts): it catches the mail of the
  // mail portal below, or with E2E_SMTP=1 the shared server's own.
  const mailDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-mail-'));
  const smtp: SmtpPeer = await startSmtpPeer(mailDir);
  const sharedMails = process.env.E2E_SMTP === '1';

  // One copy that every server of this run serves (startPortalServer).
  const webDist = await copyWebBuild();
  process.env.E2E_WEB_DIST = webDist;

  // The shared server keeps its mail in the dev outbox (the specs of the banner and the outbox
  // read it there), so the specs that read mail get a server of their own that sends it: this
  // one, for the whole run. Each worker started one before (some 10 starts a run, each 3.5 s of
  // CPU). Its people come from one address (127.0.0.1), where they had a server per worker:
  // the per-address allowances are ten times the defaults so the run's specs together do not
  // spend one (each spec's throttling tests count per account, as before).
  const started = Date.now();
  const [shared, mail] = await Promise.allSettled([
    startPortalServer({ env: sharedMails ? { SMTP_URL: smtp.url } : {} }),
    sharedMails ? Promise.resolve(null) : startPortalServer({ env: { SMTP_URL: smtp.url, RATE_LIMITS: PER_ADDRESS_ALLOWANCES } }),
  ]);
  if (shared.status === 'rejected' || mail.status === 'rejected') {
    for (const outcome of [shared, mail]) if (outcome.status === 'fulfilled') await outcome.value?.close();
    await smtp.close();
    await removeBundle();
    await rm(webDist, { recursive: true, force: true });
    await rm(mailDir, { recursive: true, force: true });
    throw shared.status === 'rejected' ? shared.reason : (mail as PromiseRejectedResult).reason;
  }
  const server = shared.value;
  const mailServer = mail.value ?? server;
  console.log(`[e2e] servers ready in ${((Date.now() - started) / 1000).toFixed(1)} s: shared at ${server.platformUrl} (log: ${path.relative(process.cwd(), server.logFile)}), mail at ${mailServer.platformUrl} (log: ${path.relative(process.cwd(), mailServer.logFile)})`);

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
  process.env.E2E_MAIL_PORTAL_URL = mailServer.platformUrl;
  process.env.E2E_MAIL_LOCKER_URL = mailServer.lockerUrl;
  process.env.E2E_MAIL_DIR = mailDir;

  return async () => {
    await server.close();
    if (mailServer !== server) await mailServer.close();
    await smtp.close();
    await rm(mailDir, { recursive: true, force: true });
    await removeBundle();
    await rm(webDist, { recursive: true, force: true });
  };
}

#!/usr/bin/env node
/**
 * `npm start`: install when needed, build the web app when its sources changed, then run
 * the server (packages/server/src/main.ts through tsx) as a child process that receives
 * SIGINT/SIGTERM and whose exit code becomes ours.
 *
 * Runs on Node 24 LTS (scripts/node24.mjs fetches the pinned binary when this Node is older).
 *
 * Defaults: PGlite under ./data, http://localhost:8080 (PORT, DATABASE_URL, ... change it;
 * see packages/server/src/config.ts). `--no-build` skips the web build check.
 *
 * The server itself defaults to production. Without NODE_ENV, `npm start` chooses the demo:
 * development (the demo account, the dev outbox) listening on this machine only, since the
 * dev outbox shows every mailed code to whoever reaches the port.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { ensureInstall, ROOT } from './ensure-install.mjs';
import { ensureNode24 } from './node24.mjs';

/** The demo's settings when the caller chose no environment; an explicit NODE_ENV is left as it is. */
function demoDefaults(env) {
  if (env.NODE_ENV) return {};
  return { NODE_ENV: 'development', HOST: env.HOST || '127.0.0.1' };
}

async function main() {
  // Node 24 LTS is the runtime: an older Node runs this again on the pinned binary.
  await ensureNode24();
  ensureInstall();
  if (!process.argv.includes('--no-build')) {
    const { ensureWebBuilt } = await import('./web-build.mjs');
    ensureWebBuilt();
  }

  const entry = path.join(ROOT, 'packages', 'server', 'src', 'main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...demoDefaults(process.env), DATA_DIR: process.env.DATA_DIR || path.join(ROOT, 'data') },
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    console.error(`[start] could not run the server: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 1));
  });
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});

/**
 * Runs a command with live output, forwarding Ctrl-C and SIGTERM to it; resolves with its exit
 * code (127 when it could not start). Shared by `npm test` (scripts/test.mjs) and
 * scripts/ensure-chromium.mjs. Plain Node, no dependencies.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string | undefined> }} [options]
 *   env is merged over process.env; a key set to undefined is removed.
 * @returns {Promise<number>}
 */
export function runCommand(command, args, { cwd, env = {} } = {}) {
  console.log(`$ ${[cwd ? path.relative(cwd, command) || command : command, ...args].join(' ')}`);
  return new Promise((resolve) => {
    const merged = { ...process.env, ...env };
    for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
    const child = spawn(command, args, { cwd, stdio: 'inherit', env: merged });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.log(`could not run ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

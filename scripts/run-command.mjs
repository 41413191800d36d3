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
export async function runCommand(command, args, options = {}) {
  return (await start(command, args, options, false)).code;
}

/**
 * runCommand that also answers what the command printed (stdout and stderr, still shown live),
 * for a caller that must read why it failed.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string | undefined> }} [options]
 * @returns {Promise<{ code: number, output: string }>}
 */
export function runCommandKeepingOutput(command, args, options = {}) {
  return start(command, args, options, true);
}

function start(command, args, { cwd, env = {} }, keepOutput) {
  console.log(`$ ${[cwd ? path.relative(cwd, command) || command : command, ...args].join(' ')}`);
  return new Promise((resolve) => {
    const merged = { ...process.env, ...env };
    for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
    const child = spawn(command, args, { cwd, stdio: keepOutput ? ['inherit', 'pipe', 'pipe'] : 'inherit', env: merged });
    let output = '';
    if (keepOutput) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        from.on('data', (chunk) => {
          output += chunk;
          to.write(chunk);
        });
      }
    }
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.log(`could not run ${command}: ${error.message}`);
      resolve({ code: 127, output });
    });
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

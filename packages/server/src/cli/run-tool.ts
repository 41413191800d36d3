/**
 * What every operator command shares: the same mode as `npm start` when none is chosen, and
 * an exit that says what went wrong in words (never a stack trace): 2 for a command or
 * argument it does not understand, with its usage; 1 for anything else.
 */
import { ConfigError } from '../config';
import { DataDirLocked } from '../db/client';

/** A command or an argument the tool does not understand: exit 2 with the usage. */
export class UsageError extends Error {
  constructor(message = '') {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * `npm start` runs the demo (development) when NODE_ENV is unset (scripts/start.mjs); the
 * tools take the same default, so the README's commands work as written beside it. An
 * explicit NODE_ENV is left as it is.
 */
export function applyStartDefaults(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.NODE_ENV) env.NODE_ENV = 'development';
}

/** Runs a tool's `main` and ends the process with its exit code. */
export function runTool(usage: string, main: () => Promise<number>): void {
  applyStartDefaults();
  main().then(
    (code) => process.exit(code),
    (error: unknown) => process.exit(report(usage, error)),
  );
}

/** Prints `error` for the operator and returns the exit code. */
export function report(usage: string, error: unknown): number {
  if (error instanceof UsageError || isParseArgsError(error)) {
    const message = (error as Error).message;
    console.error(message ? `${message}\n${usage}` : usage);
    return 2;
  }
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> } | undefined)?.issues;
  if (Array.isArray(issues)) {
    // Arguments the tool read but whose values are refused (a URI, an amount): still the caller's to fix.
    for (const issue of issues) console.error(`${issue.path.join('.') || 'input'}: ${issue.message}`);
    return 2;
  }
  if (error instanceof DataDirLocked) console.error(`refused: ${error.message}`);
  else if (error instanceof ConfigError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : String(error));
  return 1;
}

/** node:util parseArgs' own refusals (an unknown option, a missing value). */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

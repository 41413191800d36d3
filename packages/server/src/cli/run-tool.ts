/**
 * What every operator command shares: the same mode as `npm start` when none is chosen, its
 * arguments read with node's util.parseArgs, the configured database opened and closed
 * around its work, and an exit that says what went wrong in words (never a stack trace): 2
 * for a command or argument it does not understand, with its usage; 1 for anything else.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirLocked, openDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';

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

/**
 * The command of `argv` (its first `depth` words, e.g. `promo add`) when it is one of `known`,
 * and the arguments after it; otherwise a usage error naming what was not understood.
 */
export function commandOf(argv: string[], known: readonly string[], depth = 1): { command: string; rest: string[] } {
  const command = argv.slice(0, depth).join(' ');
  if (!known.includes(command)) throw new UsageError(argv.length ? `unknown command: ${command}` : '');
  return { command, rest: argv.slice(depth) };
}

/**
 * A command's options and its positionals (from `min` to `max`, by default none) through
 * node's util.parseArgs, strictly: an option it does not know, one without its value, or an
 * argument missing or too many is a usage error (exit 2 with the usage).
 */
export function parseOptions<const O extends ParseArgsOptionsConfig>(args: string[], options: O, positionals: { min?: number; max?: number } = {}) {
  const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  const min = positionals.min ?? 0;
  const max = positionals.max ?? min;
  if (parsed.positionals.length > max) throw new UsageError(`unexpected argument: ${parsed.positionals[max]}`);
  if (parsed.positionals.length < min) throw new UsageError('an argument is missing');
  return parsed;
}

/**
 * Runs `work` on the configured database (DATABASE_URL, or PGlite in DATA_DIR, which a running
 * server holds: then opening it refuses in words), migrated first and closed after, whatever
 * happens.
 */
export async function withDatabase<T>(work: (opened: { config: Config; db: Database }) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    return await work({ config, db: database.db });
  } finally {
    await database.close();
  }
}

/** A refusal the operator reads (no such client, no such key): the message on stderr, exit 1. */
export function refuse(message: string): number {
  console.error(message);
  return 1;
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

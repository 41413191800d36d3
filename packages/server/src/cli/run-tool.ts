/**
 * What every operator command shares: the same mode as `npm start` when none is chosen, its
 * arguments read with node's util.parseArgs, the configured database opened and closed
 * around its work, and an exit that says what went wrong in words (never a stack trace): 2
 * for a command or argument it does not understand, with its usage; 1 for anything else.
 *
 * A command is an `OperatorTool`: its `main` reads its arguments, settings and output through
 * a `ToolIo`. The process entry (`runTool`) hands it the process's own; `runToolWith` runs it
 * to its exit code with any other (the tests run most commands in their own process this way,
 * with the same refusals, messages and exit codes).
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirLocked, openDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { transactionScoped } from '../db/scoped-transaction';

/** Where a command reads its settings and writes what it prints. */
export interface ToolIo {
  /** The environment the command's settings come from (loadConfig, PORTAL_URL, ...). */
  env: NodeJS.ProcessEnv;
  /** Standard output: one line (or several), as console.log prints them. */
  out(text: string): void;
  /** Standard error, likewise. */
  err(text: string): void;
}

/** An operator command: its usage line, and its work, which resolves with the exit code. */
export interface OperatorTool {
  usage: string;
  main(argv: string[], io: ToolIo): Promise<number>;
}

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

/** `env` with the tools' default mode (applyStartDefaults), as a copy. */
function withStartDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  applyStartDefaults(copy);
  return copy;
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
export async function withDatabase<T>(env: NodeJS.ProcessEnv, work: (opened: { config: Config; db: Database }) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    // Scoped as the server's is (app.ts): what a module does in one transaction (an operator's
    // action with its audit row, company SSO's sweep) is one transaction here too.
    return await work({ config, db: transactionScoped(database.db) });
  } finally {
    await database.close();
  }
}

/** A refusal the operator reads (no such client, no such key): the message on stderr, exit 1. */
export function refuse(io: ToolIo, message: string): number {
  io.err(message);
  return 1;
}

/**
 * Runs `tool` on `argv` to its exit code, in this process: NODE_ENV defaulted as `npm start`
 * does (in a copy of `io.env`), and whatever it throws told in words on `io.err`.
 */
export async function runToolWith(tool: OperatorTool, argv: string[], io: ToolIo): Promise<number> {
  const toolIo = { ...io, env: withStartDefaults(io.env) };
  try {
    return await tool.main(argv, toolIo);
  } catch (error) {
    return report(tool.usage, error, toolIo);
  }
}

/** The process's own arguments, environment and output. */
const processIo: ToolIo = { env: process.env, out: (text) => console.log(text), err: (text) => console.error(text) };

/** Runs `tool` as the process (`npm run clients -- ...`) and ends it with the tool's exit code. */
export function runTool(tool: OperatorTool): void {
  applyStartDefaults();
  void runToolWith(tool, process.argv.slice(2), processIo).then((code) => process.exit(code));
}

/** Prints `error` for the operator and returns the exit code. */
function report(usage: string, error: unknown, io: ToolIo): number {
  if (error instanceof UsageError || isParseArgsError(error)) {
    const message = (error as Error).message;
    io.err(message ? `${message}\n${usage}` : usage);
    return 2;
  }
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> } | undefined)?.issues;
  if (Array.isArray(issues)) {
    // Arguments the tool read but whose values are refused (a URI, an amount): still the caller's to fix.
    for (const issue of issues) io.err(`${issue.path.join('.') || 'input'}: ${issue.message}`);
    return 2;
  }
  if (error instanceof DataDirLocked) io.err(`refused: ${error.message}`);
  else if (error instanceof ConfigError) io.err(error.message);
  else io.err(error instanceof Error ? error.message : String(error));
  return 1;
}

/** node:util parseArgs' own refusals (an unknown option, a missing value). */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

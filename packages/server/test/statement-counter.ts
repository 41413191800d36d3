import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What a counting window saw: how many statements, and their text (for a failure's message). */
export interface CountedStatements {
  count: number;
  texts: string[];
}

/**
 * Counts what this process sends its database while `run` runs (and `settleMs` after it, for
 * work a request leaves behind): on PostgreSQL each query of a `pg` client (BEGIN and COMMIT
 * included), on PGlite each protocol exchange with the instance (one per statement once its
 * text has been prepared: run the measured work once before counting). Statements whose text
 * matches `ignore` are left out: the node's timers (readiness pings, job pollers) that may
 * fall in the window.
 */
export async function countStatements(run: () => Promise<unknown>, options: { ignore?: RegExp; settleMs?: number } = {}): Promise<CountedStatements> {
  const clientPrototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const originalQuery = clientPrototype.query;
  const originalExec = pglitePrototype.execProtocol;
  const texts: string[] = [];
  const seen = (text: string) => void (options.ignore?.test(text) ? undefined : texts.push(text));
  clientPrototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
    seen(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text));
    return originalQuery.apply(this, args);
  };
  pglitePrototype.execProtocol = function countedExec(this: unknown, ...args: unknown[]) {
    seen(protocolText(args[0] as Uint8Array));
    return originalExec.apply(this, args);
  };
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 150));
    return { count: texts.length, texts };
  } finally {
    clientPrototype.query = originalQuery;
    pglitePrototype.execProtocol = originalExec;
  }
}

/** Statement names PGlite was asked to prepare, with their text (a bind names only the statement). */
const preparedTexts = new Map<string, string>();
const pglitePrototype = PGlite.prototype as unknown as { execProtocol: (...args: unknown[]) => unknown };
const execProtocol = pglitePrototype.execProtocol;
pglitePrototype.execProtocol = function recordingExec(this: unknown, ...args: unknown[]) {
  const bytes = args[0] as Uint8Array;
  if (bytes[0] === 0x50) {
    // Parse: type, length, statement name, query text (each NUL-terminated).
    const [name, text] = cStrings(bytes, 5, 2);
    if (name) preparedTexts.set(name, text ?? '');
  }
  return execProtocol.apply(this, args);
};

function cStrings(bytes: Uint8Array, from: number, count: number): string[] {
  const out: string[] = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    const end = bytes.indexOf(0, at);
    out.push(Buffer.from(bytes.subarray(at, end)).toString('utf8'));
    at = end + 1;
  }
  return out;
}

/** The statement a protocol exchange runs: a bind's prepared statement, a parse's or a simple query's text. */
function protocolText(bytes: Uint8Array): string {
  if (bytes[0] === 0x42) {
    // Bind: type, length, portal name, statement name.
    const [, name] = cStrings(bytes, 5, 2);
    return preparedTexts.get(name!) ?? name!;
  }
  if (bytes[0] === 0x50) return cStrings(bytes, 5, 2)[1]!;
  return cStrings(bytes, 5, 1)[0]!;
}

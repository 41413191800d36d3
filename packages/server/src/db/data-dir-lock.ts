import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** The lock file inside a PGlite data folder; PostgreSQL itself ignores it. */
export const DATA_DIR_LOCK_FILE = 'portal.lock';

interface LockHolder {
  pid: number;
  host: string;
  /** The script that holds it (main.ts for the server, oauth-admin.ts for `npm run clients`, ...). */
  what: string;
  since: string;
}

/**
 * PGlite keeps its database in this process's memory and writes the folder back on its own
 * schedule: a second process on the same folder (an operator command beside a running
 * server) works on its own copy, and one of the two copies is silently lost. So one process
 * at a time holds the folder, and any other is refused in words that say what to do.
 */
export class DataDirLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the data folder ${dataDir} is in use by ${holder.what} (process ${holder.pid} on ${holder.host}, since ${holder.since}); ` +
        'PGlite serves one process at a time, so nothing was read or changed. Stop that process first, ' +
        'or, for a command beside a running server, set PORTAL_URL and OPERATOR_API_KEY so it goes through the server\'s admin API. ' +
        `(If no such process runs, remove ${path.join(dataDir, DATA_DIR_LOCK_FILE)}.)`,
    );
    this.name = 'DataDirLocked';
  }
}

/** Lock files this process holds: its own pid in a lock it does not hold is a previous life's (a container's pid 1). */
const held = new Set<string>();

/**
 * Takes `dataDir`'s lock or throws DataDirLocked; returns its release. A lock whose process
 * has ended (killed, crashed) is taken over. The file appears whole or not at all (written
 * aside, then hard-linked into place, which fails when one exists).
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: hostname(), what: path.basename(process.argv[1] ?? process.argv0), since: new Date().toISOString() };
  const mineText = JSON.stringify(mine);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file, mineText)) {
      held.add(file);
      const release = () => {
        process.off('exit', release);
        if (!held.delete(file)) return;
        // Only our own lock: never one another process took over.
        if (readText(file) === mineText) unlinkQuietly(file);
      };
      // A process that exits without closing its database holds nothing any more.
      process.on('exit', release);
      return release;
    }
    const text = readText(file);
    if (text === undefined) continue; // released meanwhile
    const holder = parseHolder(text);
    if (holder && isAlive(holder, file)) throw new DataDirLocked(dataDir, holder);
    removeStale(file, text);
  }
  throw new DataDirLocked(dataDir, parseHolder(readText(file) ?? '') ?? { pid: 0, host: 'unknown', what: 'another process', since: 'unknown' });
}

function tryCreate(file: string, text: string): boolean {
  const aside = `${file}.${process.pid}.tmp`;
  const fd = openSync(aside, 'w');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(aside);
  }
}

/**
 * Moves a dead process's lock aside. Two processes may both have seen it dead: the second's
 * rename then moves the first's fresh lock, which it sees by its content and puts back.
 */
function removeStale(file: string, staleText: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readText(aside) !== staleText) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone holds it again: they keep it.
    }
  }
  unlinkQuietly(aside);
}

function isAlive(holder: LockHolder, file: string): boolean {
  // Another machine's process (a shared volume) cannot be asked: it is taken as running.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return held.has(file);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string') return { pid: value.pid, host: value.host, what: String(value.what ?? 'another process'), since: String(value.since ?? 'unknown') };
  } catch {
    // Not ours, or damaged: treated as stale below.
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

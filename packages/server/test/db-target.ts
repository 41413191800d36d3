import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client';

export const SNAPSHOT_DIR = fileURLToPath(new URL('../../../.cache/test', import.meta.url));

/**
 * The run a test process belongs to: global-setup names it (TEST_RUN_ID, which the test
 * processes inherit), so two runs at once in one checkout (several people testing on one
 * machine) never restore, clone or drop each other's migrated database.
 */
const runId = () => process.env.TEST_RUN_ID ?? 'default';

/** The migrated PGlite database every PGlite test file restores (made by global-setup). */
export const pgliteSnapshot = () => path.join(SNAPSHOT_DIR, `pglite-migrated-${runId()}.tar.gz`);

/** Which database the integration tests run on: PGlite by default, PostgreSQL when TEST_DB=postgres. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

/**
 * The migrated database every PostgreSQL test file clones (made by global-setup). Named per
 * checkout and run, so two checkouts (worktrees, a CI clone) or two runs of one checkout
 * testing on one server at once never drop each other's template.
 */
export const templateDatabase = (run = runId()) => `portal_test_template_${checkoutHash()}_${run}`;

/** This checkout's part of its test databases' names. */
const checkoutHash = () => createHash('sha256').update(SNAPSHOT_DIR).digest('hex').slice(0, 10);

/**
 * A PGlite data folder at `dataDir` holding the run's migrated snapshot, for a server process or
 * an operator command to open: it skips PGlite's initdb and every migration, which a fresh
 * folder's first opening runs (about 4 s of CPU on a quiet machine, 15-20 s of a test under load).
 */
export async function migratedDataDir(dataDir: string): Promise<string> {
  const restored = await PGlite.create(dataDir, { loadDataDir: new Blob([await readFile(pgliteSnapshot())]) });
  await restored.close();
  return dataDir;
}

/**
 * The prefix of the databases this run's test files clone from the template: global-setup's
 * teardown drops them all at once (dropRunDatabases). It names the checkout and the run (the
 * process id of the run's global-setup), so that a later run can tell a dead run's leftovers.
 */
export const runDatabasePrefix = (run = runId()) => `portal_t_${checkoutHash()}_${run}_`;

/**
 * A fresh, migrated database of its own for one test file. On PostgreSQL, closing it closes its
 * connections and leaves the database for the run's teardown to drop: a DROP DATABASE waits for
 * the server to make every backend let go of its files and for a checkpoint, 1-3 s each on the
 * 2-core machine under the suite's load, which the file's worker sat out before its next file
 * (some 200 files). Dropped together at the end, they share checkpoints: ten at once took 0.9 s.
 */
export async function freshDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (testDatabaseKind() === 'pglite') {
    const snapshot = await readFile(pgliteSnapshot());
    const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
    return openDatabase({ pglite });
  }
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `${runDatabasePrefix()}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create database ${name} template ${templateDatabase()}`);
  await admin.end();
  base.pathname = `/${name}`;
  return { ...(await openDatabase({ url: base.toString() })), url: base.toString() };
}

/** Drops every database this run's test files cloned (global-setup's teardown), several at once. */
export async function dropRunDatabases(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [runDatabasePrefix()]);
  await admin.end();
  await dropDatabases(url, rows.map((row) => row.datname));
}

/**
 * Drops the test databases of this checkout's runs that ended without their teardown (a run
 * stopped with Ctrl-C, a killed CI job): each run's template and clones carry its global-setup's
 * process id, and a run whose process is gone on this machine cannot be using them. A live
 * process of that id (another run, or an unrelated one that took the id) keeps them.
 */
export async function dropDeadRunsDatabases(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const ofThisCheckout = new RegExp(`^(?:portal_t_${checkoutHash()}_(\\d+)_[0-9a-f]+|portal_test_template_${checkoutHash()}_(\\d+))$`);
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database');
  await admin.end();
  const dead = rows
    .map((row) => ({ name: row.datname, run: ofThisCheckout.exec(row.datname)?.slice(1).find(Boolean) }))
    .filter((database): database is { name: string; run: string } => database.run !== undefined && !processAlive(Number(database.run)));
  await dropDatabases(url, dead.map((database) => database.name));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops `names`, eight at once (each drop waits for a checkpoint; together they share it). */
async function dropDatabases(url: string, names: string[]): Promise<void> {
  const dropper = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let name = names.pop(); name; name = names.pop()) await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, names.length) }, dropper));
}

/**
 * A fresh, migrated database for the tests of the file (or describe block) that asks: this object
 * is filled before its first test and closed after its last, after the file's own afterAll (on
 * PostgreSQL, dropped when the run ends).
 */
export function fileDatabase(): DatabaseHandle {
  const database = {} as DatabaseHandle;
  beforeAll(async () => {
    Object.assign(database, await freshDatabase());
  });
  afterAll(async () => {
    if ('close' in database) await database.close();
  });
  return database;
}

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
export const templateDatabase = () => `portal_test_template_${createHash('sha256').update(SNAPSHOT_DIR).digest('hex').slice(0, 10)}_${runId()}`;

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

/** A fresh, migrated database of its own for one test file. */
export async function freshDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (testDatabaseKind() === 'pglite') {
    const snapshot = await readFile(pgliteSnapshot());
    const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
    return openDatabase({ pglite });
  }
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `portal_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create database ${name} template ${templateDatabase()}`);
  await admin.end();
  base.pathname = `/${name}`;
  const handle = await openDatabase({ url: base.toString() });
  return {
    ...handle,
    url: base.toString(),
    close: async () => {
      await handle.close();
      const drop = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}

/**
 * A fresh, migrated database for the tests of the file (or describe block) that asks: this object
 * is filled before its first test and closed (on PostgreSQL, dropped) after its last, after the
 * file's own afterAll.
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

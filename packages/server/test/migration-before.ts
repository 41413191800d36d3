import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { migrationsFolder } from '../src/db/migrate';

export interface BeforeMigration {
  database: DatabaseHandle;
  /** Runs the migrations that came before the one under test, so old rows can be written as they once stood. */
  migrateEarlier(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh PGlite database beside a copy of the migrations whose journal ends just before `tag`: a test
 * writes rows the old schema allowed, then runs every migration (`migrate`) and reads what the one under test made of them.
 */
async function beforeMigration(tag: string): Promise<BeforeMigration> {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-before-migration-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const mine = journal.entries.find((entry) => entry.tag === tag);
  if (!mine) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.filter((entry) => entry.idx < mine.idx);
  await writeFile(journalFile, JSON.stringify(journal));
  const database = await openDatabase({ pglite: new PGlite() });
  return {
    database,
    async migrateEarlier() {
      if (database.kind !== 'pglite') throw new Error('PGlite only');
      await migratePglite(database.db, { migrationsFolder: folder });
    },
    async close() {
      await database.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** The database before migration `tag`, for a test file: opened before its tests, closed after them. */
export function beforeMigrationForFile(tag: string): Pick<BeforeMigration, 'database' | 'migrateEarlier'> {
  let opened: BeforeMigration | undefined;
  beforeAll(async () => {
    opened = await beforeMigration(tag);
  });
  afterAll(() => opened?.close());
  return {
    get database() {
      return opened!.database;
    },
    migrateEarlier: () => opened!.migrateEarlier(),
  };
}

import { mkdir, rm, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { dropDeadRunsDatabases, dropRunDatabases, pgliteSnapshot, SNAPSHOT_DIR, templateDatabase } from './db-target';
import { sizeForTests } from './pglite-memory';
import { bundleServer } from './server-bundle';

/**
 * Migrates once per run. PGlite: a migrated in-memory database dumped to a file that every
 * test file restores (~0.5 s instead of ~4 s). PostgreSQL: a migrated template database that
 * every test file clones. Also bundles the server's entry points for the tests that run them
 * as processes (server-bundle.ts). Both are this run's own (TEST_RUN_ID, db-target.ts); the
 * returned teardown removes them, the bundle, and the databases the test files cloned. A run
 * that ended without its teardown leaves its databases to the next run of the checkout.
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env.TEST_RUN_ID = String(process.pid);
  const removeBundle = await bundleServer();
  await mkdir(SNAPSHOT_DIR, { recursive: true });
  const pglite = await PGlite.create();
  await migrate(await openDatabase({ pglite }));
  await sizeForTests(pglite);
  const dump = await pglite.dumpDataDir('gzip');
  await writeFile(pgliteSnapshot(), Buffer.from(await dump.arrayBuffer()));
  await pglite.close();

  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB === 'postgres' && url) {
    await dropDeadRunsDatabases(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const template = templateDatabase();
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${template}`;
    const handle = await openDatabase({ url: target.toString() });
    await migrate(handle);
    await handle.close();
  }
  return async () => {
    await removeBundle();
    await rm(pgliteSnapshot(), { force: true });
    if (process.env.TEST_DB === 'postgres' && url) {
      await dropRunDatabases(url);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists ${templateDatabase()} with (force)`);
      await admin.end();
    }
  };
}

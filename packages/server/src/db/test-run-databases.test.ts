import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropDeadRunsDatabases, runDatabasePrefix, templateDatabase, testDatabaseKind } from '../../test/db-target';

/**
 * The PostgreSQL test databases of a run stopped before its teardown (Ctrl-C, a killed CI job)
 * are dropped by the next run of the checkout; those of a run still going are not.
 */
const url = process.env.TEST_DATABASE_URL!;

/** The id of a process that has ended. */
const endedProcessId = () =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.on('exit', () => resolve(child.pid!));
  });

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(testDatabaseKind() === 'postgres')("a run's leftover test databases", () => {
  const live = `${runDatabasePrefix(String(process.pid))}0a1b2c3d4e5f`;
  afterAll(async () => {
    await query(`drop database if exists ${live}`);
  });

  it("are dropped when the run's process is gone, kept while it lives", async () => {
    const ended = String(await endedProcessId());
    const leftovers = [`${runDatabasePrefix(ended)}0a1b2c3d4e5f`, templateDatabase(ended)];
    for (const name of [...leftovers, live]) await query(`create database ${name}`);

    await dropDeadRunsDatabases(url);

    const names = (await query<{ datname: string }>('select datname from pg_database where datname = any($1)', [[...leftovers, live]])).map((row) => row.datname);
    expect(names).toEqual([live]);
    // Creating and dropping databases waits for the server's checkpoints: about a second alone, over
    // 30 s once with other runs' databases filling shared buffers beside it (load, not a fault).
  }, 120_000);
});

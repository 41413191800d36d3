import type { PGlite } from '@electric-sql/pglite';

/**
 * The memory of the PGlite databases the tests open, set once in what they all start from (the
 * vitest run's migrated snapshot, the e2e run's template). PGlite zeroes its shared memory each
 * time it opens a database, in WebAssembly: at PostgreSQL's defaults (shared_buffers 128MB,
 * max_connections 100) that took about 0.4 s of the 1 s of CPU an opening cost (one memset,
 * most of it page faults), paid by every server and operator command a test starts, some 60 in
 * an e2e run. Test databases hold a few megabytes. A deployed PGlite keeps PostgreSQL's defaults.
 */
export async function sizeForTests(pglite: PGlite): Promise<void> {
  // ALTER SYSTEM writes postgresql.auto.conf, read at the next opening; one statement at a
  // time, since it may not run inside a transaction block.
  await pglite.query(`alter system set shared_buffers = '16MB'`);
  await pglite.query('alter system set max_connections = 10');
}

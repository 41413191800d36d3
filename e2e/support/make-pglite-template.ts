/**
 * `node --import tsx e2e/support/make-pglite-template.ts <dir>`: a PGlite data directory with
 * every migration applied, made by the global setup when no run has made one for the current
 * migrations yet (support/pglite-template.ts). Each server the specs start runs on a copy
 * of it (e2e/support/server.ts), which skips PGlite's initdb and the
 * migrations: about 5 s of every start on a quiet machine, 20 s under load.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../packages/server/src/db/client';
import { migrate } from '../../packages/server/src/db/migrate';
import { sizeForTests } from '../../packages/server/test/pglite-memory';

const dir = process.argv[2];
if (!dir) throw new Error('usage: make-pglite-template.ts <dir>');
await rm(dir, { recursive: true, force: true });
await mkdir(path.dirname(dir), { recursive: true }); // .cache/e2e does not exist in a fresh clone
const database = await openDatabase({ dataDir: dir });
await migrate(database);
await database.close();
// Its memory for the tests (pglite-memory.ts), set on PGlite itself: the server's handle runs it in a worker.
const pglite = await PGlite.create(dir);
await sizeForTests(pglite);
await pglite.close();

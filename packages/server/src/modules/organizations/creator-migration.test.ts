import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { migrate, migrationsFolder } from '../../db/migrate';

const TAG = '0023_creator_memberships';
let before: string;
let database: DatabaseHandle;

beforeAll(async () => {
  // The migrations as they stood before this one: it and any after it left out.
  before = await mkdtemp(path.join(tmpdir(), 'portal-creator-migration-'));
  await cp(migrationsFolder, before, { recursive: true });
  const journalFile = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const mine = journal.entries.find((entry) => entry.tag === TAG)!;
  journal.entries = journal.entries.filter((entry) => entry.idx < mine.idx);
  await writeFile(journalFile, JSON.stringify(journal));
  database = await openDatabase({ pglite: new PGlite() });
});
afterAll(async () => {
  await database?.close();
  await rm(before, { recursive: true, force: true });
});

const org = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

describe(`migration ${TAG}`, () => {
  it('gives a creator without a row one (owner when the organization has none, else admin), never bringing back one who was removed or left', async () => {
    if (database.kind !== 'pglite') throw new Error('PGlite only');
    await migratePglite(database.db, { migrationsFolder: before });
    await database.db.execute(sql`INSERT INTO organizations (id, name, admin_email) VALUES
      (${org(1)}, 'No Rows Co', 'Solo@one.example'),
      (${org(2)}, 'Other Owner Co', 'maker@two.example'),
      (${org(3)}, 'Removed Co', 'gone@three.example'),
      (${org(4)}, 'Already Co', 'kept@four.example'),
      (${org(5)}, 'Elsewhere Co', 'solo@one.example')`);
    await database.db.execute(sql`INSERT INTO organization_members (organization_id, email, role) VALUES
      (${org(2)}, 'owner@two.example', 'owner'),
      (${org(3)}, 'owner@three.example', 'owner'),
      (${org(4)}, 'kept@four.example', 'member')`);
    await database.db.execute(sql`INSERT INTO organization_audit_events (organization_id, action, target_email) VALUES (${org(3)}, 'member_removed', 'gone@three.example')`);
    await migrate(database);
    const rows = await database.db.execute<{ organization_id: string; email: string; role: string }>(sql`SELECT organization_id, email, role FROM organization_members ORDER BY email`);
    expect(rows.rows.map((row) => [row.organization_id, row.email, row.role])).toEqual([
      [org(4), 'kept@four.example', 'member'],
      [org(2), 'maker@two.example', 'admin'],
      [org(3), 'owner@three.example', 'owner'],
      [org(2), 'owner@two.example', 'owner'],
      // One organization per email: the first organization keeps it.
      [org(1), 'solo@one.example', 'owner'],
    ]);
    // Every migration from nothing on PGlite: slow on a busy machine.
  }, 180_000);
});

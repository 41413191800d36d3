import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { migrate, migrationsFolder } from '../../db/migrate';

const TAG = '0013_organization_invitations';
let before: string;
let database: DatabaseHandle;

beforeAll(async () => {
  // The migrations as they stood before roles: this one and any after it left out.
  before = await mkdtemp(path.join(tmpdir(), 'portal-roles-migration-'));
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

describe(`migration ${TAG}`, () => {
  it("makes each organization's admin its owner, keeps other members, and refuses unknown roles afterwards", async () => {
    if (database.kind !== 'pglite') throw new Error('PGlite only');
    await migratePglite(database.db, { migrationsFolder: before });
    await database.db.execute(sql`INSERT INTO organizations (id, name, admin_email) VALUES ('00000000-0000-4000-8000-000000000001', 'Old Co', 'Boss@old.example')`);
    await database.db.execute(sql`INSERT INTO organization_members (organization_id, email, role) VALUES
      ('00000000-0000-4000-8000-000000000001', 'boss@old.example', 'admin'),
      ('00000000-0000-4000-8000-000000000001', 'helper@old.example', 'admin'),
      ('00000000-0000-4000-8000-000000000001', 'staff@old.example', 'member'),
      ('00000000-0000-4000-8000-000000000001', 'odd@old.example', 'viewer')`);
    await migrate(database);
    const rows = await database.db.execute<{ email: string; role: string }>(sql`SELECT email, role FROM organization_members ORDER BY email`);
    expect(rows.rows.map((row) => [row.email, row.role])).toEqual([
      ['boss@old.example', 'owner'],
      ['helper@old.example', 'admin'],
      ['odd@old.example', 'member'],
      ['staff@old.example', 'member'],
    ]);
    const refused = await database.db.execute(sql`UPDATE organization_members SET role = 'king' WHERE email = 'staff@old.example'`).then(
      () => null,
      (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
    );
    expect(refused).toMatch(/organization_members_role_check/);
  });
});

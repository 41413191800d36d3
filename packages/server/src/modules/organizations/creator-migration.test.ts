import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate';
import { beforeMigrationForFile } from '../../../test/migration-before';

const TAG = '0023_creator_memberships';
const before = beforeMigrationForFile(TAG);

const org = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

describe(`migration ${TAG}`, () => {
  it('gives a creator without a row one (owner when the organization has none, else admin), never bringing back one who was removed or left', async () => {
    await before.migrateEarlier();
    await before.database.db.execute(sql`INSERT INTO organizations (id, name, admin_email) VALUES
      (${org(1)}, 'No Rows Co', 'Solo@one.example'),
      (${org(2)}, 'Other Owner Co', 'maker@two.example'),
      (${org(3)}, 'Removed Co', 'gone@three.example'),
      (${org(4)}, 'Already Co', 'kept@four.example'),
      (${org(5)}, 'Elsewhere Co', 'solo@one.example')`);
    await before.database.db.execute(sql`INSERT INTO organization_members (organization_id, email, role) VALUES
      (${org(2)}, 'owner@two.example', 'owner'),
      (${org(3)}, 'owner@three.example', 'owner'),
      (${org(4)}, 'kept@four.example', 'member')`);
    await before.database.db.execute(sql`INSERT INTO organization_audit_events (organization_id, action, target_email) VALUES (${org(3)}, 'member_removed', 'gone@three.example')`);
    await migrate(before.database);
    const rows = await before.database.db.execute<{ organization_id: string; email: string; role: string }>(sql`SELECT organization_id, email, role FROM organization_members ORDER BY email`);
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

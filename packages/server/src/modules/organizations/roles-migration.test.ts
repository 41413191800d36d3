import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate';
import { beforeMigrationForFile } from '../../../test/migration-before';

const TAG = '0013_organization_invitations';
const before = beforeMigrationForFile(TAG);

describe(`migration ${TAG}`, () => {
  it("makes each organization's admin its owner, keeps other members, and refuses unknown roles afterwards", async () => {
    await before.migrateEarlier();
    await before.database.db.execute(sql`INSERT INTO organizations (id, name, admin_email) VALUES ('00000000-0000-4000-8000-000000000001', 'Old Co', 'Boss@old.example')`);
    await before.database.db.execute(sql`INSERT INTO organization_members (organization_id, email, role) VALUES
      ('00000000-0000-4000-8000-000000000001', 'boss@old.example', 'admin'),
      ('00000000-0000-4000-8000-000000000001', 'helper@old.example', 'admin'),
      ('00000000-0000-4000-8000-000000000001', 'staff@old.example', 'member'),
      ('00000000-0000-4000-8000-000000000001', 'odd@old.example', 'viewer')`);
    await migrate(before.database);
    const rows = await before.database.db.execute<{ email: string; role: string }>(sql`SELECT email, role FROM organization_members ORDER BY email`);
    expect(rows.rows.map((row) => [row.email, row.role])).toEqual([
      ['boss@old.example', 'owner'],
      ['helper@old.example', 'admin'],
      ['odd@old.example', 'member'],
      ['staff@old.example', 'member'],
    ]);
    const refused = await before.database.db.execute(sql`UPDATE organization_members SET role = 'king' WHERE email = 'staff@old.example'`).then(
      () => null,
      (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
    );
    expect(refused).toMatch(/organization_members_role_check/);
    // Every migration from nothing on PGlite: slow on a busy machine.
  }, 180_000);
});

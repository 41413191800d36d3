import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate';
import { beforeMigrationForFile } from '../../../test/migration-before';

const TAG = '0044_webhook_claims_by_scope';
const before = beforeMigrationForFile(TAG);

const PERSON = '00000000-0000-4000-8000-000000000001';
const whole = { id: PERSON, email: 'lan@example.com', name: 'Lan', username: 'lan', language: 'vi', updated_at: '2030-03-10T08:00:01.230Z' };

describe(`migration ${TAG}`, () => {
  it('cuts the events already queued or logged to what each app is allowed now: the id alone without a grant', async () => {
    await before.migrateEarlier();
    const db = before.database.db;
    await db.execute(sql`INSERT INTO oauth_clients (client_id, metadata) VALUES ('id-only', '{}'), ('email-only', '{}'), ('whole', '{}'), ('gone', '{}')`);
    for (const [client, scope] of [['id-only', 'openid'], ['email-only', 'openid email'], ['whole', 'openid profile email']]) {
      const payload = JSON.stringify({ kind: 'Grant', accountId: PERSON, clientId: client, openid: { scope } });
      await db.execute(sql`INSERT INTO oidc_models (model, id, payload, account_id, client_id, expires_at) VALUES ('Grant', ${`grant-${client}`}, ${payload}::jsonb, ${PERSON}, ${client}, now() + interval '1 day')`);
    }
    for (const client of ['id-only', 'email-only', 'whole', 'gone']) {
      const payload = JSON.stringify({ type: 'user.updated', timestamp: '2030-03-10T08:00:01.234Z', data: whole });
      await db.execute(sql`INSERT INTO webhook_deliveries (event_id, client_id, type, subject, payload, status) VALUES (gen_random_uuid(), ${client}, 'user.updated', ${PERSON}, ${payload}::jsonb, ${client === 'whole' ? 'pending' : 'delivered'})`);
    }
    await migrate(before.database);
    const rows = await db.execute<{ client_id: string; data: object }>(sql`SELECT client_id, payload -> 'data' AS data FROM webhook_deliveries ORDER BY client_id`);
    expect(Object.fromEntries(rows.rows.map((row) => [row.client_id, row.data]))).toEqual({
      'email-only': { id: PERSON, email: 'lan@example.com' },
      gone: { id: PERSON },
      'id-only': { id: PERSON },
      whole,
    });
    // Every migration from nothing on PGlite: slow on a busy machine.
  }, 180_000);
});

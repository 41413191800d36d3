import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientCredentialsRow } from '../../../test/client-credentials-row';
import { fileDatabase } from '../../../test/db-target';
import { countStatements } from '../../../test/statement-counter';
import { oidcModels } from '../../db/schema';
import { hotStatements } from './adapter-statements';

const database = fileDatabase();


describe('upserts of concurrent requests', () => {
  it('are stored by fewer statements than requests, every one before its promise settles', async () => {
    const { upsert } = hotStatements(database.db);
    const ids = Array.from({ length: 10 }, (_, i) => `grouped-${i}-${Date.now()}`);
    await upsert.execute([clientCredentialsRow(`warm-${Date.now()}`)]);
    const counted = await countStatements(() =>
      Promise.all(
        ids.map(async (id) => {
          await upsert.execute([clientCredentialsRow(id)]);
          // Stored when its own promise settles, whatever the others do.
          const [row] = await database.db.select({ id: oidcModels.id }).from(oidcModels).where(inArray(oidcModels.id, [id]));
          expect(row?.id).toBe(id);
        }),
      ),
    );
    const upserts = counted.texts.filter((text) => /insert into "oidc_models"/i.test(text));
    // All ten arrive in the same turn of the event loop: one statement.
    expect(upserts.length).toBe(1);
  });

  it('send the rows that arrive while a statement is on its way with the next one', async () => {
    const { upsert } = hotStatements(database.db);
    const stamp = Date.now();
    await upsert.execute([clientCredentialsRow(`warm-later-${stamp}`)]);
    const counted = await countStatements(async () => {
      const first = upsert.execute([clientCredentialsRow(`on-its-way-${stamp}`)]);
      // Later turns of the event loop, while the first statement is on its way.
      await new Promise((resolve) => setImmediate(resolve));
      const later = Array.from({ length: 5 }, (_, i) => upsert.execute([clientCredentialsRow(`later-${i}-${stamp}`)]));
      await Promise.all([first, ...later]);
    });
    const upserts = counted.texts.filter((text) => /insert into "oidc_models"/i.test(text));
    expect(upserts.length).toBe(2);
    const stored = await database.db.select({ id: oidcModels.id }).from(oidcModels).where(inArray(oidcModels.id, [`on-its-way-${stamp}`, ...Array.from({ length: 5 }, (_, i) => `later-${i}-${stamp}`)]));
    expect(stored).toHaveLength(6);
  });

  it('save the same row twice in one batch as one after the other would: the later one', async () => {
    const { upsert } = hotStatements(database.db);
    const id = `twice-${Date.now()}`;
    await Promise.all([upsert.execute([clientCredentialsRow(`first-${Date.now()}`)]), upsert.execute([clientCredentialsRow(id, 'first')]), upsert.execute([clientCredentialsRow(id, 'second')])]);
    const [row] = await database.db.select({ payload: oidcModels.payload }).from(oidcModels).where(inArray(oidcModels.id, [id]));
    expect(row?.payload.scope).toBe('second');
  });
});

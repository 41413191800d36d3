import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsRow } from '../../../test/client-credentials-row';
import { fileDatabase, testDatabaseKind } from '../../../test/db-target';
import { hotStatements } from './adapter-statements';
import { rowsDocument } from './model-rows';

/**
 * PostgreSQL plans a prepared statement anew on each of its first five runs, then keeps one
 * plan for every value when that plan does not look dearer than the ones made for the values
 * seen. A token grant's statements run thousands of times a second: planned each time, the
 * planning was a quarter of the database's CPU under refresh grants. Each must settle on its
 * kept (generic) plan. PostgreSQL only: PGlite does not keep named statements.
 */
const RUNS = 12;

describe.runIf(testDatabaseKind() === 'postgres')("the token grants' statements on PostgreSQL", () => {
  const handle = fileDatabase();
  beforeAll(async () => {
    // A table of a node that has served a while (its statistics make the planner's estimates).
    await handle.db.execute(sql`insert into oidc_models (model, id, payload, grant_id, account_id, client_id, expires_at)
      select (array['AccessToken', 'RefreshToken', 'Grant', 'Session'])[1 + g % 4], 'seed-' || g, '{}'::jsonb, 'grant-' || (g / 3), 'account-' || (g / 20), 'a-product', now() + interval '1 day'
      from generate_series(1, 20000) g`);
    await handle.db.execute(sql`analyze oidc_models`);
  });

  /** The plans each prepared statement of this connection has made (statements run one after another share the pool's last connection). */
  const plans = async () =>
    (await handle.db.execute<{ name: string; generic_plans: number; custom_plans: number }>(sql`select name, generic_plans::int, custom_plans::int from pg_prepared_statements`)).rows;

  it('keep one plan after their first runs instead of planning every run', async () => {
    const statements = hotStatements(handle.db);
    const stamp = Date.now();
    const row = (n: number) => clientCredentialsRow(`plans-${stamp}-${n}`);
    for (let n = 0; n < RUNS; n++) {
      await statements.upsert.execute([row(n)]);
      await statements.find.execute({ id: `plans-${stamp}-${n}`, models: ['AccessToken', 'ClientCredentials', 'RefreshToken'] });
      await statements.find.execute({ id: `plans-${stamp}-${n}`, models: ['RefreshToken'] });
      await statements.find.execute({ id: `plans-${stamp}-${n}`, models: ['AccessToken', 'ClientCredentials'] });
      await statements.consumeAndUpsert.execute({ rows: rowsDocument([row(RUNS + n)]), consumedModel: 'ClientCredentials', consumedId: `plans-${stamp}-${n}` });
      await statements.consume.execute({ model: 'ClientCredentials', id: `plans-${stamp}-${RUNS + n}` });
    }
    const made = await plans();
    const byName = Object.fromEntries(made.map((plan) => [plan.name, plan]));
    for (const name of ['oidc_models_upsert', 'oidc_models_find', 'oidc_models_find_among', 'oidc_models_consume_upsert', 'oidc_models_consume']) {
      expect(byName[name], `${name} ran on this connection`).toBeDefined();
      expect(byName[name]!.custom_plans, `${name}: ${JSON.stringify(byName[name])}`).toBeLessThanOrEqual(5);
    }
  });
});

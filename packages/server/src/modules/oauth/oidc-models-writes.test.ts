import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';

/**
 * The provider's table is shaped for its writes (migration 0040): the lookup columns' indexes
 * keep only rows with a value, and pages keep room to mark a row used in place. Each lookup
 * the portal makes must still find its index, and marking a token used on a full table must
 * add nothing to the indexes.
 */
const handle = fileDatabase();

beforeAll(async () => {
  await insertTokens('lookup-', 50);
});

/** Rows as ${n} client-credentials tokens would have them: no grant, account, session, uid or user code. */
const insertTokens = (prefix: string, n: number) =>
  handle.db.execute(sql`insert into oidc_models (model, id, payload, client_id, expires_at)
    select 'ClientCredentials', ${prefix} || g, '{"kind":"ClientCredentials","jti":"x"}'::jsonb, 'a-product', now() + interval '1 hour'
    from generate_series(1, ${n}::int) g`);

describe('oidc_models', () => {
  // Each form the portal's lookups take on each column (adapter.ts, service.ts, sweep.ts:
  // `=` and drizzle's `in`), parameters bound as drizzle binds them, planned generically (a
  // prepared statement's plan for any value): the index's "is not null" must follow from it.
  const lookups: Record<string, string[]> = {
    oidc_models_grant_idx: ['grant_id = $1', 'grant_id in ($1, $2)'],
    oidc_models_user_code_idx: ["model = 'DeviceCode' and user_code = $1 and (expires_at is null or expires_at > now())"],
    oidc_models_uid_idx: ["model = 'Session' and uid = $1", 'uid in ($1, $2)'],
    oidc_models_session_uid_idx: ['session_uid in ($1, $2)'],
    oidc_models_account_idx: ["model = 'Grant' and account_id = $1 and client_id = $2", 'account_id = $1'],
  };
  const cases = Object.entries(lookups).flatMap(([index, wheres]) => wheres.map((where) => ({ index, where })));

  it.each(cases)('finds rows by $where through $index', async ({ index, where }) => {
    const name = `lookup_${cases.findIndex((lookup) => lookup.where === where)}`;
    const arity = where.match(/\$\d/g)!.length;
    const values = Array.from({ length: arity }, (_, at) => `'value-${at}'`).join(', ');
    const plan = await handle.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local plan_cache_mode = force_generic_plan`));
      await tx.execute(sql.raw(`set local enable_seqscan = off`));
      await tx.execute(sql.raw(`prepare ${name}(${Array(arity).fill('text').join(', ')}) as select id from oidc_models where ${where}`));
      const explained = await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`explain execute ${name}(${values})`));
      await tx.execute(sql.raw(`deallocate ${name}`));
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain(index);
  });

  it('marks a token used in place on a full page (no new index entries: a HOT update)', async () => {
    // Enough rows for several pages, so the first one is as full as inserts leave it.
    await insertTokens('page-', 400);
    const [first] = (await handle.db.execute<{ id: string }>(sql`select id from oidc_models where ctid = '(0,1)'::tid`)).rows;
    expect(first).toBeDefined();
    const hot = await handle.db.transaction(async (tx) => {
      await tx.execute(sql`update oidc_models set consumed_at = now() where model = 'ClientCredentials' and id = ${first!.id} and consumed_at is null`);
      const [row] = (await tx.execute<{ hot: string }>(sql`select pg_stat_get_xact_tuples_hot_updated('oidc_models'::regclass) as hot`)).rows;
      return Number(row!.hot);
    });
    expect(hot).toBe(1);
  });
});

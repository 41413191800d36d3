import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStatementCache } from './pglite-statements';

// One in-memory PGlite for the file (making one takes seconds); each test starts on a new table, no statements.
let client: PGlite;
beforeAll(async () => {
  client = await PGlite.create();
});
afterAll(() => client.close());
beforeEach(async () => {
  await client.exec(`deallocate all; drop table if exists things; create table things (id int primary key, name text not null, tags text[], at timestamptz, data jsonb)`);
});

/** The named statements PostgreSQL holds for this session. */
const prepared = async () => (await client.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map((row) => row.name);

describe('PGlite statement cache', () => {
  it('answers what PGlite itself answers, for every kind of value, preparing each text once', async () => {
    const cache = createStatementCache(client);
    const plain = client.query.bind(client);
    const insert = 'insert into things (id, name, tags, at, data) values ($1, $2, $3, $4, $5) returning id';
    const at = new Date('2026-11-28T01:02:03.456Z');
    expect((await cache.run(plain, insert, [1, 'one', ['a', 'b'], at, { deep: [1, null] }], undefined, false)).rows).toEqual([{ id: 1 }]);
    expect((await cache.run(plain, insert, [2, 'two', null, null, null], undefined, false)).affectedRows).toBe(1);

    const select = 'select * from things where id = $1';
    for (const id of [1, 2]) {
      for (const options of [undefined, { rowMode: 'array' as const }]) {
        const [cached, own] = [await cache.run(plain, select, [id], options, false), await client.query(select, [id], options)];
        expect(cached.rows).toEqual(own.rows);
        expect(cached.fields).toEqual(own.fields);
      }
    }
    expect((await cache.run(plain, select, [1], undefined, false)).rows[0]).toMatchObject({ tags: ['a', 'b'], at, data: { deep: [1, null] } });
    expect(await prepared()).toEqual(['pglite_1', 'pglite_2']);
  });

  it('keeps the error and its code, and goes on working after it', async () => {
    const cache = createStatementCache(client);
    const plain = client.query.bind(client);
    const insert = 'insert into things (id, name) values ($1, $2)';
    await cache.run(plain, insert, [1, 'one'], undefined, false);
    await expect(cache.run(plain, insert, [1, 'again'], undefined, false)).rejects.toMatchObject({ code: '23505' });
    await expect(cache.run(plain, 'select nonsense from', [], undefined, false)).rejects.toMatchObject({ code: '42601' });
    await cache.run(plain, insert, [2, 'two'], undefined, false);
    expect((await client.query('select count(*)::int as n from things')).rows).toEqual([{ n: 2 }]);
  });

  it('writes inside a transaction that a rollback undoes, and its statements outlive it', async () => {
    const cache = createStatementCache(client);
    const insert = 'insert into things (id, name) values ($1, $2)';
    await expect(
      client.transaction(async (tx) => {
        await cache.run(tx.query.bind(tx), insert, [1, 'one'], undefined, true);
        expect((await cache.run(tx.query.bind(tx), 'select count(*)::int as n from things', [], undefined, true)).rows).toEqual([{ n: 1 }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await client.query('select count(*)::int as n from things')).rows).toEqual([{ n: 0 }]);
    await cache.run(client.query.bind(client), insert, [2, 'two'], undefined, false);
    expect((await client.query('select id from things')).rows).toEqual([{ id: 2 }]);
  });

  it('runs a text afresh when DDL changed what its statement returns', async () => {
    const cache = createStatementCache(client);
    const plain = client.query.bind(client);
    await client.query(`insert into things (id, name) values (1, 'one')`);
    expect(Object.keys((await cache.run(plain, 'select * from things', [], undefined, false)).rows[0]!)).toHaveLength(5);
    await client.exec('alter table things add column extra int default 7');
    expect((await cache.run(plain, 'select * from things', [], undefined, false)).rows[0]).toMatchObject({ id: 1, extra: 7 });
    expect((await cache.run(plain, 'select * from things', [], undefined, false)).rows[0]).toMatchObject({ extra: 7 });
  });

  it('closes the least recently used statement past its size', async () => {
    const cache = createStatementCache(client, 2);
    const plain = client.query.bind(client);
    await cache.run(plain, 'select 1 as a', [], undefined, false);
    await cache.run(plain, 'select 2 as b', [], undefined, false);
    await cache.run(plain, 'select 1 as a', [], undefined, false);
    await cache.run(plain, 'select 3 as c', [], undefined, false);
    // "select 2" was the least recently used.
    expect(await prepared()).toEqual(['pglite_1', 'pglite_3']);
    expect((await cache.run(plain, 'select 2 as b', [], undefined, false)).rows).toEqual([{ b: 2 }]);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';

/**
 * Who is signed in, read from memory: reads (GET) are answered without the database, changes
 * made anywhere reach them, and requests that may change the account read the database.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const me = (token: string) => server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
const lastActive = (token: string) => server.app.inject({ method: 'POST', url: '/v3/sso/me/last_active', headers: { authorization: `Bearer ${token}` } });

/** Runs `change` with the identity triggers off: what a node would see if no one told it. */
async function behindTheCachesBack(change: () => Promise<unknown>): Promise<void> {
  const { db } = server.database;
  await db.execute(sql`alter table users disable trigger users_identity_change`);
  await db.execute(sql`alter table sessions disable trigger sessions_identity_change`);
  try {
    await change();
  } finally {
    await db.execute(sql`alter table users enable trigger users_identity_change`);
    await db.execute(sql`alter table sessions enable trigger sessions_identity_change`);
  }
}

describe('sessions served from memory', () => {
  it('answers reads from memory once a session has been seen', async () => {
    const token = await identityClient(server.app, server.database).registeredUser('memory@example.com');
    expect((await me(token)).json().full_name).toBe('Test Person');
    await behindTheCachesBack(() => server.database.db.execute(sql`update users set full_name = 'Unannounced' where email = 'memory@example.com'`));
    expect((await me(token)).json().full_name).toBe('Test Person');
  });

  it('shows a change made directly in the database on the next read', async () => {
    const token = await identityClient(server.app, server.database).registeredUser('direct@example.com');
    expect((await me(token)).statusCode).toBe(200);
    await server.database.db.execute(sql`update users set full_name = 'Changed Elsewhere' where email = 'direct@example.com'`);
    await expect.poll(async () => (await me(token)).json().full_name, { timeout: 2000 }).toBe('Changed Elsewhere');
  });

  it('refuses a session revoked directly in the database', async () => {
    const token = await identityClient(server.app, server.database).registeredUser('revoked@example.com');
    expect((await me(token)).statusCode).toBe(200);
    await server.database.db.execute(
      sql`update sessions set revoked_at = now() where user_id = (select id from users where email = 'revoked@example.com')`,
    );
    await expect.poll(async () => (await me(token)).statusCode, { timeout: 2000 }).toBe(401);
  });

  it('reads the database for requests that may change the account', async () => {
    const token = await identityClient(server.app, server.database).registeredUser('writes@example.com');
    expect((await me(token)).statusCode).toBe(200);
    await behindTheCachesBack(() =>
      server.database.db.execute(sql`update sessions set revoked_at = now() where user_id = (select id from users where email = 'writes@example.com')`),
    );
    // The copy in memory still vouches for the read; the write checks the database and refuses.
    expect((await me(token)).statusCode).toBe(200);
    expect((await lastActive(token)).statusCode).toBe(401);
  });

  it('sees its own writes on the next read at once', async () => {
    const token = await identityClient(server.app, server.database).registeredUser('own@example.com');
    expect((await me(token)).statusCode).toBe(200);
    const put = await server.app.inject({
      method: 'PUT',
      url: '/v3/sso/me',
      headers: { authorization: `Bearer ${token}` },
      payload: { full_name: 'Own Write', language: 'en' },
    });
    expect(put.statusCode).toBe(200);
    expect((await me(token)).json().full_name).toBe('Own Write');
    await server.app.inject({ method: 'POST', url: '/v3/sso/logout', headers: { authorization: `Bearer ${token}` } });
    expect((await me(token)).statusCode).toBe(401);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, testDatabaseKind } from '../../../test/db-target';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { startPgProxy, type PgProxy } from '../../../test/pg-proxy';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { listenOnPostgres } from '../../db/listen';
import { loadConfig } from '../../config';

/**
 * A listening connection that dies without a word (a NAT or firewall forgets it) must not
 * leave a node answering from a cache nobody keeps fresh any more. PostgreSQL only: PGlite
 * runs in the process and cannot lose its notifications.
 */
const onPostgres = testDatabaseKind() === 'postgres';
const KEEPALIVE_MS = 300;

describe('LISTEN_KEEPALIVE_MS', () => {
  it('has a documented default and a floor', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).LISTEN_KEEPALIVE_MS).toBe(5000);
    expect(() => loadConfig({ NODE_ENV: 'development', LISTEN_KEEPALIVE_MS: '10' })).toThrow(/LISTEN_KEEPALIVE_MS/);
  });
});

describe.runIf(onPostgres)('a silently dropped listening connection', () => {
  let direct: DatabaseHandle & { url?: string };
  let proxy: PgProxy;
  beforeAll(async () => {
    direct = await freshDatabase();
    proxy = await startPgProxy(direct.url!);
  });
  afterAll(async () => {
    await proxy?.close();
    await direct?.close();
  });

  it('is noticed by the keepalive, and the return after it is announced as a gap too', async () => {
    let gaps = 0;
    const subscription = await listenOnPostgres(proxy.url, 'keepalive_test', { message: () => undefined, gap: () => void gaps++ }, { keepaliveMs: KEEPALIVE_MS });
    try {
      expect(subscription.live).toBe(true);
      expect(proxy.silenceListeners()).toBe(1);
      await expect.poll(() => subscription.live, { timeout: 5000, interval: 50 }).toBe(false);
      expect(gaps).toBe(1);
      // Back through the proxy on a new connection: everything cached meanwhile is stale.
      await expect.poll(() => subscription.live, { timeout: 10_000, interval: 50 }).toBe(true);
      expect(gaps).toBe(2);
    } finally {
      await subscription.close();
    }
  });

  describe('behind a running server (HTTP)', () => {
    let viaProxy: DatabaseHandle;
    let server: TestServer;
    beforeAll(async () => {
      viaProxy = await openDatabase({ url: proxy.url, listen: { keepaliveMs: KEEPALIVE_MS } });
      server = await startTestServer({ database: viaProxy });
    });
    afterAll(async () => {
      await server?.close();
      await viaProxy?.close();
    });

    it('refuses a session revoked elsewhere once the listener has gone silent', async () => {
      const client = identityClient(server.app, server.database);
      const token = await client.registeredUser('silent-listener@example.com');
      const me = () => server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
      expect((await me()).statusCode).toBe(200);
      expect((await me()).statusCode).toBe(200); // now answered from the identity cache

      expect(proxy.silenceListeners()).toBeGreaterThan(0);
      // Revoked by another node or an operator: the notification goes to a connection that hears nothing.
      await direct.db.execute(sql`update sessions set revoked_at = now()`);

      await expect.poll(async () => (await me()).statusCode, { timeout: 5000, interval: 100 }).toBe(401);
    });
  });
});

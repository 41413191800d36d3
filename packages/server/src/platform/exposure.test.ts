import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { freshDatabase } from '../../test/db-target';
import { createMailer } from './mail';

/** What the server shows to whoever reaches its port: metrics, the dev outbox, the page CSP. */

const servers: TestServer[] = [];
async function server(env: Record<string, string>, listen = false): Promise<TestServer> {
  const started = await startTestServer({ env, listen, database: servers[0]?.database });
  servers.push(started);
  return started;
}
afterAll(async () => {
  for (const started of servers.reverse()) await started.close();
});

/**
 * A port nobody listens on, below Linux's ephemeral range (32768 and up by default): the servers
 * other test files start on port 0 get theirs from that range, so none can take this one between
 * the probe and the server's start.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const probe = createServer();
    const bound = await new Promise<boolean>((resolve) => probe.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true)));
    if (!bound) continue;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }
}

describe('/metrics', () => {
  it('is not served on the main port without a token or a port of its own', async () => {
    const plain = await server({});
    expect((await plain.app.inject('/metrics')).statusCode).toBe(404);
  });

  it('answers only the bearer of METRICS_TOKEN, with route patterns, not raw URLs', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await server({ METRICS_TOKEN: token });
    expect((await guarded.app.inject('/metrics')).statusCode).toBe(404);
    expect((await guarded.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(404);
    await guarded.app.inject('/v3/resources/lang');
    const allowed = await guarded.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('http_request_duration_seconds_bucket');
    expect(allowed.body).toContain('route="/v3/resources/lang"');
  });

  it('is served on METRICS_PORT, and there only', async () => {
    const port = await freePort();
    const separate = await server({ METRICS_PORT: String(port) }, true);
    expect((await fetch(`${separate.url}/metrics`)).status).toBe(404);
    const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('process_cpu_user_seconds_total');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });

  it('fails the start when METRICS_PORT cannot be bound, rather than running unmonitored', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      await expect(server({ METRICS_PORT: String(port), HOST: '127.0.0.1' }, true)).rejects.toThrow(`METRICS_PORT ${port} cannot be bound on 127.0.0.1`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('the dev outbox', () => {
  it('is mounted, and announced to pages, only without SMTP, in development, listening on localhost', async () => {
    const local = await server({ NODE_ENV: 'development', HOST: '127.0.0.1' });
    expect((await local.app.inject('/dev/outbox')).statusCode).toBe(200);
    expect((await local.app.inject('/login')).body).toContain('"dev":true');

    const exposed = await server({ NODE_ENV: 'development', HOST: '0.0.0.0' });
    expect((await exposed.app.inject('/dev/outbox')).statusCode).toBe(404);
    expect((await exposed.app.inject('/login')).body).toContain('"dev":false');

    const withSmtp = await server({ NODE_ENV: 'development', HOST: '127.0.0.1', SMTP_URL: 'smtp://127.0.0.1:9' });
    expect((await withSmtp.app.inject('/dev/outbox')).statusCode).toBe(404);

    const production = await server({ NODE_ENV: 'production', HOST: '127.0.0.1', ALTCHA_HMAC_KEY: 'a-key-of-enough-length' });
    expect((await production.app.inject('/dev/outbox')).statusCode).toBe(404);
  });

  it('prints mailed codes to the log in development only', async () => {
    const database = await freshDatabase();
    try {
      const lines: object[] = [];
      const logger = { info: (object: object) => void lines.push(object) };
      const mail = { to: 'eve@example.com', subject: 'Your code', text: 'code 481516', html: '<p>481516</p>' };
      await createMailer({ from: 'x@localhost', database, logger, logBodies: false }).send(mail);
      expect(JSON.stringify(lines)).not.toContain('481516');
      expect(JSON.stringify(lines)).not.toContain('eve@example.com');
      await createMailer({ from: 'x@localhost', database, logger, logBodies: true }).send(mail);
      expect(JSON.stringify(lines.at(-1))).toContain('481516');
    } finally {
      await database.close();
    }
  });
});

describe('the page CSP', () => {
  it('lets pages connect to our origins only, not to any https host', async () => {
    const plain = await server({});
    const csp = String((await plain.app.inject('/login')).headers['content-security-policy']);
    const connect = /connect-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(connect.split(' ')).toEqual(["'self'", 'http://locker.localhost:8080']);

    const apiHost = await server({ LOCKER_API_BASE_URL: 'https://api.locker.example/v3' });
    const lockerCsp = String((await apiHost.app.inject('/login')).headers['content-security-policy']);
    expect(/connect-src ([^;]*)/.exec(lockerCsp)?.[1]).toBe("'self' https://api.locker.example");
  });
});

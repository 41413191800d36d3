import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggedLine } from '../../test/logs';
import { loggerOptions, OneLinePerRequest } from './logger';
import { redactUrl } from './redact-url';

describe('redactUrl', () => {
  it('masks tokens in link paths', () => {
    expect(redactUrl('/confirmation/abc123')).toBe('/confirmation/[redacted]');
    expect(redactUrl('/reset-pwd/abc123?x=1')).toBe('/reset-pwd/[redacted]?x=1');
    expect(redactUrl('/confirmation/education-email/zz')).toBe('/confirmation/education-email/[redacted]');
  });
  it('masks secret query values and keeps the rest', () => {
    expect(redactUrl('/o/cb?code=secret&state=s&lang=vi')).toBe('/o/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&lang=vi');
  });
  it('leaves plain paths alone', () => {
    expect(redactUrl('/v3/sso/me')).toBe('/v3/sso/me');
  });
  it('rebuilds a matched route’s path from its pattern, keeping only parameters that name things', () => {
    expect(redactUrl('/v3/oauth/interactions/uid-123/consent?x=1', { pattern: '/v3/oauth/interactions/:uid/consent', params: { uid: 'uid-123' } })).toBe('/v3/oauth/interactions/[redacted]/consent?x=1');
    expect(redactUrl('/v3/locker_platform/pm/users/me', { pattern: '/v3/:product(^[a-z]+)_platform/pm/users/me', params: { product: 'locker' } })).toBe('/v3/locker_platform/pm/users/me');
    expect(redactUrl('/v3/sso/me/cards/c1', { pattern: '/v3/sso/me/cards/:id', params: { id: 'c1' } })).toBe('/v3/sso/me/cards/c1');
  });
  it('masks page link tokens by the web’s route table, and what follows them', () => {
    expect(redactUrl('/confirmation/invitation/abc', { pattern: '/*' })).toBe('/confirmation/invitation/[redacted]');
    expect(redactUrl('/register/abc/x')).toBe('/register/[redacted]/[redacted]');
    expect(redactUrl('/register/locker-enterprise-trial')).toBe('/register/locker-enterprise-trial');
    expect(redactUrl('/researchers/ada')).toBe('/researchers/ada');
    expect(redactUrl('/sso/redirect?handoff=h&lang=vi')).toBe('/sso/redirect?handoff=%5Bredacted%5D&lang=vi');
  });
});

describe('the log line', () => {
  const secret = 's3cr3t-value-never-logged';

  it('censors secret keys at the top of a logged object and one level down', () => {
    const line = loggedLine({
      password: secret,
      body: { email: 'ada@example.test', password: secret, new_password: secret },
      config: { PARTNER_EXCHANGE_SECRET: secret, WHC_SIGNER_KEY: secret, PORT: 8080 },
      oauth: { token: secret, code: secret, authorization: `Bearer ${secret}` },
    });
    expect(line).not.toContain(secret);
    const parsed = JSON.parse(line) as { body: { email: string; password: string }; config: { PORT: number } };
    expect(parsed.body).toEqual({ email: 'ada@example.test', password: '[redacted]', new_password: '[redacted]' });
    expect(parsed.config.PORT).toBe(8080);
  });

  it('never changes the object it logs', () => {
    const body = { password: secret };
    loggedLine({ body });
    expect(body.password).toBe(secret);
  });

  it('keeps a request line to method, masked URL and address', () => {
    const line = loggedLine({ req: { method: 'GET', url: '/reset-pwd/abc?code=1', ip: '10.0.0.1', headers: { cookie: secret } } });
    expect(JSON.parse(line).req).toEqual({ method: 'GET', url: '/reset-pwd/[redacted]?code=%5Bredacted%5D', ip: '10.0.0.1' });
  });

  it('keeps a response line to its status', () => {
    const line = loggedLine({ res: { statusCode: 200, headers: { 'set-cookie': `auth_token=${secret}` }, getHeaders: () => ({ 'set-cookie': secret }) } });
    expect(line).not.toContain(secret);
    expect(JSON.parse(line).res).toEqual({ statusCode: 200 });
  });
});

describe('the request log', () => {
  it('writes one line per request when it is answered, also for a reply the handler writes itself (the provider)', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>));
        done();
      },
    });
    const app = Fastify({ logger: { ...(loggerOptions('info') as object), stream }, logController: new OneLinePerRequest() });
    app.get('/reset-pwd/:token', async () => ({ ok: true }));
    app.post('/oidc/token', async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
    });
    await app.inject({ url: '/reset-pwd/abc?code=1', headers: { cookie: 'auth_token=secret' } });
    await app.inject({ method: 'POST', url: '/oidc/token' });
    await app.close();
    const requests = lines.filter((line) => line.req || line.res);
    expect(requests.map((line) => [line.msg, line.req, line.res])).toEqual([
      ['request completed', { method: 'GET', url: '/reset-pwd/[redacted]?code=%5Bredacted%5D', ip: '127.0.0.1' }, { statusCode: 200 }],
      ['request completed', { method: 'POST', url: '/oidc/token', ip: '127.0.0.1' }, { statusCode: 400 }],
    ]);
    expect(requests.every((line) => typeof line.responseTime === 'number' && typeof line.reqId === 'string')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});

describe('the deployed log (stdoutLog)', () => {
  /** A process that logs through stdoutLog, then stays up (`stay`) or exits at once; its output and how long each line took. */
  function logFrom(script: string): Promise<{ lines: Array<{ msg: string; after: number }>; code: number | null }> {
    const loggerUrl = new URL('./logger.ts', import.meta.url).href;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import pino from 'pino'; import { stdoutLog } from '${loggerUrl}'; const log = pino(stdoutLog()); ${script}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = Date.now();
    const lines: Array<{ msg: string; after: number }> = [];
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop()!;
      for (const line of parts) lines.push({ msg: (JSON.parse(line) as { msg: string }).msg, after: Date.now() - started });
    });
    return new Promise((resolve) => child.on('close', (code) => resolve({ lines, code })));
  }

  it('writes a line held in its buffer within a second while the process stays up', async () => {
    // The process logs once and stays up 3 s: with the buffer alone the line would wait for 4 KiB more, or the exit.
    const { lines } = await logFrom(`log.info('ready'); setTimeout(() => log.info('leaving'), 3000);`);
    expect(lines.map((line) => line.msg)).toEqual(['ready', 'leaving']);
    expect(lines[1]!.after - lines[0]!.after).toBeGreaterThan(1500);
  }, 20_000);

  it('writes every held line when the process exits, or throws', async () => {
    const exited = await logFrom(`for (let i = 0; i < 50; i++) log.info('line ' + i); process.exit(3);`);
    expect(exited.code).toBe(3);
    expect(exited.lines.map((line) => line.msg)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
    const crashed = await logFrom(`log.error('about to fail'); setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(crashed.code).toBe(1);
    expect(crashed.lines.map((line) => line.msg)).toEqual(['about to fail']);
  }, 20_000);
});

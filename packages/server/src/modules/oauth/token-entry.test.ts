import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestServer, type TestServer } from '../../../test/harness';
import { capturedLog } from '../../../test/logs';
import { isPlainTokenCall } from './token-entry';

/**
 * The lean entry of the token endpoints (token-entry.ts) answers plain token calls before
 * Fastify: each guarantee Fastify's layer gives those requests is checked here on requests
 * that go the lean way (over HTTP, without an origin, cookie or device id) against the same
 * request through Fastify (app.inject never passes the lean entry).
 */
const SECRET = 'product-secret-of-the-tests-0123456789';
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const BASIC = `Basic ${Buffer.from(`test-product:${SECRET}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

let server: TestServer;
const log = capturedLog();

beforeAll(async () => {
  const port = await freePort();
  server = await startTestServer({
    listen: true,
    port,
    logStream: log.stream(),
    // One proxy in front: the client is the right-most X-Forwarded-For entry, HTTPS as it says.
    env: { PORT: String(port), PLATFORM_ORIGIN: `http://127.0.0.1:${port}`, OAUTH_CLIENTS_FILE: CLIENTS_FILE, OAUTH_CLIENT_SECRETS: `test-product=${SECRET}`, LOG_LEVEL: 'info', TRUST_PROXY: '1' },
  });
});
afterAll(() => server?.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const PROXIED = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' };

/** A POST over HTTP from `base` (the listening app unless told otherwise), with the headers a back end sends. */
function post(path: string, body: string, headers: Record<string, string> = {}, base = server.url): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${base}${path}`, { method: 'POST', headers: { 'content-type': FORM, 'content-length': String(Buffer.byteLength(body)), ...PROXIED, ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers as Record<string, string>, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The same request through Fastify (inject skips the server's request listener, so the lean entry too). */
async function throughFastify(path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await server.app.inject({ method: 'POST', url: path, payload: body, remoteAddress: '127.0.0.1', headers: { 'content-type': FORM, ...PROXIED, ...headers } });
  return { status: response.statusCode, headers: response.headers as Record<string, string>, body: response.body };
}

/** What a response says, less what differs between any two answers (date, connection) and the fresh device id and expiry. */
function comparable(answer: Answer): Answer {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'device-id': deviceId, 'device-expired-time': expiry, ...headers } = answer.headers;
  expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
  expect(Number(expiry)).toBeGreaterThan(Date.now() / 1000);
  return { status: answer.status, headers, body: answer.body };
}

const CALLS: Array<[string, string, string, Record<string, string>?]> = [
  ['a client-credentials grant refused (wrong secret)', '/oidc/token', 'grant_type=client_credentials', { authorization: `Basic ${Buffer.from('test-product:wrong').toString('base64')}` }],
  ['a token request without a grant type', '/oidc/token', 'scope=openid', { authorization: BASIC }],
  ['a token request of an unknown client', '/oidc/token', 'grant_type=client_credentials&client_id=nobody'],
  ['an introspection of an unknown token', '/oidc/token/introspection', 'token=not-a-token', { authorization: BASIC }],
  ['a revocation of an unknown token', '/oidc/token/revocation', 'token=not-a-token', { authorization: BASIC }],
  ['a body that is not a form', '/oidc/token', '%%%&&&==', { authorization: BASIC }],
  ['a body holding NUL', '/oidc/token', 'grant_type=client_credentials\u0000', { authorization: BASIC }],
];

describe('which requests take the lean entry', () => {
  const plain = { 'content-type': FORM, 'content-length': '29', ...PROXIED, authorization: BASIC };
  const call = (url: string, headers: Record<string, string | undefined> = plain, method = 'POST') => isPlainTokenCall({ method, url, headers } as unknown as IncomingMessage);

  it('the calls the tests below make: a form POST to one of the three token paths, from a back end', () => {
    for (const path of ['/oidc/token', '/oidc/token/introspection', '/oidc/token/revocation']) expect(call(path)).toBe(true);
  });

  it.each([
    ['a query (Fastify refuses a NUL in it)', '/oidc/token?x=1', plain],
    ['another path of the provider', '/oidc/userinfo', plain],
    ['a path Fastify would route the same way', '/oidc/token/', plain],
    ['an origin (CORS headers)', '/oidc/token', { ...plain, origin: 'https://example.com' }],
    ['a cookie (the portal session, a device id)', '/oidc/token', { ...plain, cookie: 'a=b' }],
    ['a device id of its own', '/oidc/token', { ...plain, 'device-id': 'abcdefgh12' }],
    ['a chunked body', '/oidc/token', { ...plain, 'transfer-encoding': 'chunked' }],
    ['no declared length', '/oidc/token', { ...plain, 'content-length': undefined }],
    ['an empty body', '/oidc/token', { ...plain, 'content-length': '0' }],
    ['a body over the limit', '/oidc/token', { ...plain, 'content-length': String(56 * 1024 + 1) }],
    ['another content type', '/oidc/token', { ...plain, 'content-type': 'application/json' }],
    ['a content type with parameters', '/oidc/token', { ...plain, 'content-type': `${FORM}; charset=utf-8` }],
  ])('not with %s: Fastify answers it', (_name, url, headers) => {
    expect(call(url, headers)).toBe(false);
  });

  it('not a GET', () => expect(call('/oidc/token', plain, 'GET')).toBe(false));
});

describe('the lean token entry keeps what Fastify gave the token endpoints', () => {
  it.each(CALLS)('%s: the same status, headers and body as through Fastify', async (_name, path, body, headers) => {
    const lean = comparable(await post(path, body, headers));
    expect(lean).toEqual(comparable(await throughFastify(path, body, headers)));
    // The security headers are among them, HSTS too (the trusted proxy says HTTPS).
    expect(lean.headers).toMatchObject({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
  });

  it('a NUL in the body is refused as a field error before the provider', async () => {
    const answer = await post('/oidc/token', 'grant_type=client_credentials\u0000', { authorization: BASIC });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'validation_error', details: { fields: { body: { code: 'validation_error' } } } });
  });

  it('a granted token: the same headers as through Fastify, no HSTS over plain HTTP', async () => {
    const plain = { authorization: BASIC, 'x-forwarded-proto': 'http' };
    const lean = comparable(await post('/oidc/token', 'grant_type=client_credentials', plain));
    const fastify = comparable(await throughFastify('/oidc/token', 'grant_type=client_credentials', plain));
    expect(lean.status).toBe(200);
    expect(lean.headers).toEqual(fastify.headers);
    expect(lean.headers['strict-transport-security']).toBeUndefined();
    expect(Object.keys(JSON.parse(lean.body)).sort()).toEqual(Object.keys(JSON.parse(fastify.body)).sort());
  });

  it('a body over the limit is refused with 413, as Fastify refuses it', async () => {
    const body = `grant_type=client_credentials&pad=${'a'.repeat(57 * 1024)}`;
    const lean = await post('/oidc/token', body, { authorization: BASIC });
    expect(lean.status).toBe(413);
    expect(comparable(lean)).toEqual(comparable(await throughFastify('/oidc/token', body, { authorization: BASIC })));
  });

  it('writes one log line per request at info: reqId, method, path, the proxied client address, status, time; never the body or the credentials', async () => {
    const before = log.text.length;
    const marker = `marker${Date.now()}`;
    await post('/oidc/token/introspection', `token=${marker}`, { authorization: BASIC });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = log.text.slice(before).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      reqId: expect.stringMatching(/^req-[0-9a-z]+$/),
      req: { method: 'POST', url: '/oidc/token/introspection', ip: '203.0.113.9' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(Object.keys(lines[0]!).sort()).toEqual(['hostname', 'level', 'msg', 'pid', 'req', 'reqId', 'res', 'responseTime', 'time']);
    expect(log.text.slice(before)).not.toContain(marker);
    expect(log.text.slice(before)).not.toContain(SECRET);
    expect(log.text.slice(before)).not.toContain(BASIC.slice(6));
  });

  it('request ids are one sequence with the requests Fastify answers', async () => {
    const before = log.text.length;
    await post('/oidc/token/revocation', 'token=x', { authorization: BASIC });
    await post('/oidc/token/revocation', 'token=x', { authorization: BASIC, cookie: 'a=b' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ids = log.text.slice(before).trim().split('\n').map((line) => (JSON.parse(line) as { reqId: string }).reqId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it('counts each request in the request-duration metric under the route pattern', async () => {
    const count = async () => {
      const { values } = await server.app.requestDurations.get();
      return values.find((sample) => sample.metricName === 'http_request_duration_seconds_count' && sample.labels.route === '/oidc/*' && sample.labels.status === '401')?.value ?? 0;
    };
    const before = await count();
    await post('/oidc/token', 'grant_type=client_credentials', { authorization: `Basic ${Buffer.from('test-product:wrong').toString('base64')}` });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await count()).toBe(before + 1);
  });

  it('answers 503 once the server is closing, as Fastify does (this test closes the server)', async () => {
    // The server's own request listener (the lean entry in front of Fastify) on a second socket: the app's stops accepting when it closes.
    const [listener] = server.app.server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
    const second = createServer(listener);
    await new Promise<void>((resolve) => second.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(second.address() as { port: number }).port}`;
    try {
      expect((await post('/oidc/token', 'grant_type=client_credentials', { authorization: BASIC }, base)).status).toBe(200);
      const closed = server.app.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const answer = await post('/oidc/token', 'grant_type=client_credentials', { authorization: BASIC }, base);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Service Unavailable', message: 'Service Unavailable', statusCode: 503 });
      await closed;
    } finally {
      await new Promise((resolve) => second.close(resolve));
    }
  });
});

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { routerRefusal } from './errors';

/**
 * What the router refuses before any route (routerRefusal in errors.ts) answers as every
 * request does: the spec's error shape and the security headers, in every method, never
 * Fastify's bare 414 or 400 (which no hook saw, and which echoed the path back).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const request = (method: 'GET' | 'PATCH' | 'DELETE', url: string) =>
  server.app.inject({ method, url, headers: { host: 'localhost' }, ...(method === 'PATCH' ? { payload: {} } : {}) });

describe('a URL the router refuses', () => {
  it('a path parameter longer than any id names nothing: 404 not_found, as an unknown id, in every method', async () => {
    for (const [method, url] of [
      ['GET', `/v3/admin/apps/${'x'.repeat(129)}`],
      ['PATCH', `/v3/admin/apps/${'x'.repeat(129)}`],
      ['DELETE', `/v3/sso/me/api-keys/${'y'.repeat(150)}`],
    ] as const) {
      const response = await request(method, url);
      expect([response.statusCode, response.json()], `${method} ${url}`).toEqual([404, { code: 'not_found', message: 'Resource not found' }]);
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('a URL it cannot decode: 400 validation_error, without the path echoed back', async () => {
    const response = await request('GET', '/v3/admin/apps/%zz<script>');
    expect([response.statusCode, response.json()]).toEqual([400, { code: 'validation_error', message: 'Invalid data' }]);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.body).not.toContain('script');
  });
});

describe('a router error that is not the caller\'s', () => {
  it('a route constraint that failed is logged and answers the 500 of any unexpected error, not a 400 blaming the request', async () => {
    const logged: unknown[] = [];
    // The portal declares no asynchronous route constraint; one that fails is what Fastify sends
    // here besides the two refusals above.
    const app = Fastify({
      frameworkErrors: routerRefusal,
      logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
      routerOptions: {
        // Fastify's types describe only synchronous strategies; this one answers through `done`.
        constraints: {
          tenant: {
            name: 'tenant',
            storage: () => {
              const handlers = new Map<string, unknown>();
              return { get: (value: string) => handlers.get(value) ?? null, set: (value: string, handler: unknown) => void handlers.set(value, handler) };
            },
            deriveConstraint: (_request: unknown, _context: unknown, done: (error: Error | null, value?: string) => void) => done(new Error('tenant lookup failed')),
            validate: () => undefined,
            mustMatchWhenDerived: true,
          },
        } as never,
      },
    });
    app.get('/thing', { constraints: { tenant: 'a' } }, async () => 'a');
    try {
      const response = await app.inject({ method: 'GET', url: '/thing' });
      expect([response.statusCode, response.json()]).toEqual([500, { code: 'something_went_wrong', message: 'Something went wrong!' }]);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(logged).toContainEqual(expect.objectContaining({ level: 50, msg: 'router error', err: expect.objectContaining({ code: 'FST_ERR_ASYNC_CONSTRAINT' }) }));
    } finally {
      await app.close();
    }
  });
});

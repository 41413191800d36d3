import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('platform', () => {
  it('answers health and readiness', async () => {
    expect((await server.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await server.app.inject('/readyz')).json()).toEqual({ status: 'ok' });
  });

  it('reports not ready when the database is gone', async () => {
    const other = await startTestServer();
    await other.database.close();
    const response = await other.app.inject('/readyz');
    expect(response.statusCode).toBe(503);
    await other.app.close();
  });

  it('answers unknown /v3 paths with the error shape', async () => {
    const response = await server.app.inject('/v3/nope/nothing');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'not_found', message: 'Resource not found' });
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v3/resources/lang',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toHaveProperty('code');
  });

  it('sets security headers on API answers, and the document ones on pages', async () => {
    const api = await server.app.inject('/v3/resources/lang');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['x-frame-options']).toBe('DENY');
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers['strict-transport-security']).toBeUndefined();
    expect(api.headers['referrer-policy']).toBeUndefined();

    const page = await server.app.inject('/login');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+'/);
  });

  it('adds HSTS only to requests that came over HTTPS', async () => {
    const behindProxy = await startTestServer({ env: { TRUST_PROXY: '1' }, database: server.database });
    try {
      const https = await behindProxy.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const http = await behindProxy.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await behindProxy.close();
    }
  });

  it('issues a device id with its expiry only when the request has none', async () => {
    const fresh = await server.app.inject('/healthz');
    const id = fresh.headers['device-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const expiry = Number(fresh.headers['device-expired-time']);
    expect(expiry - Date.now() / 1000).toBeGreaterThan(29 * 86400);
    const again = await server.app.inject({ url: '/healthz', headers: { 'device-id': String(id) } });
    expect(again.headers['device-id']).toBeUndefined();
    const junk = await server.app.inject({ url: '/healthz', headers: { 'device-id': '<script>' } });
    expect(junk.headers['device-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI 3.1 document of /v3', async () => {
    const doc = (await server.app.inject('/v3/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/resources/countries');
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('serves languages and countries', async () => {
    const lang = await server.app.inject({ url: '/v3/resources/lang', headers: { 'accept-language': 'vi-VN,vi;q=0.9' } });
    expect(lang.json()).toEqual({ lang: 'vi' });
    const countries = (await server.app.inject('/v3/resources/countries')).json();
    expect(countries.find((c: { code: string }) => c.code === 'VN').name).toEqual({ en: 'Vietnam', vi: 'Việt Nam' });
  });
});

import { endpointErrorStatuses } from '@portal/contracts';
import { allEndpoints } from '@portal/contracts/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** `METHOD /path/{param}` of every operation in the served OpenAPI document. */
function registered(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
}

describe('endpoints declared once', () => {
  it('registers every declared endpoint, and declares every registered route', async () => {
    const document = (await server.app.inject('/v3/openapi.json')).json();
    const served = new Set(registered(document));
    const declared = new Set(allEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`));

    expect([...declared].filter((key) => !served.has(key)), 'declared but not registered').toEqual([]);
    expect([...served].filter((key) => !declared.has(key)), 'registered but not declared').toEqual([]);
  });

  it('declares each endpoint once', () => {
    const keys = allEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('documents the declared error statuses in the OpenAPI document', async () => {
    const document = (await server.app.inject('/v3/openapi.json')).json();
    const revoke = document.paths['/sso/me/api-keys/{id}'].delete;
    expect(Object.keys(revoke.responses).sort()).toEqual(['204', '400', '401', '403', '404']);
  });

  it('documents every endpoint with its summary, tag and every error status it declares', async () => {
    const document = (await server.app.inject('/v3/openapi.json')).json();
    const missing: string[] = [];
    for (const endpoint of allEndpoints) {
      const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      const statuses = Object.keys(operation?.responses ?? {});
      const wanted = [...endpointErrorStatuses(endpoint).keys()].map(String);
      if (operation?.summary !== endpoint.summary || !operation.tags?.includes(endpoint.tag) || wanted.some((status) => !statuses.includes(status))) {
        missing.push(`${endpoint.method} ${endpoint.path}`);
      }
    }
    expect(missing).toEqual([]);
    // A limited sign-in says so: 429 with the error body.
    expect(Object.keys(document.paths['/sso/auth'].post.responses).sort()).toEqual(['200', '400', '403', '429']);
  });
});

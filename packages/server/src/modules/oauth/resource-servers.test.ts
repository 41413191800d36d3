import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceServers } from './resource-servers';

/**
 * Products' APIs declared in the clients file: what an operator may write there. The tokens
 * themselves (issued to a listed app only, refused to another with invalid_target, verified by
 * a product API with jose) are tested against the real server in e2e/integrate.spec.ts.
 */
let folder: string;
const declare = async (servers: unknown) => {
  const file = path.join(folder, `${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify({ clients: [], resource_servers: servers }));
  return () => resourceServers({ OAUTH_CLIENTS_FILE: file });
};

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'resource-servers-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('resource servers of the clients file', () => {
  it('reads an API with its scopes and apps, tokens living 5 minutes unless said', async () => {
    const read = await declare([{ resource: 'https://notes.example.com/api', scopes: ['notes:read'], clients: ['notes'] }]);
    expect(read()).toEqual([{ resource: 'https://notes.example.com/api', scopes: ['notes:read'], clients: ['notes'], access_token_ttl: 300 }]);
  });

  it('a file without APIs has none (the products file as it was)', async () => {
    const file = path.join(folder, 'none.json');
    await writeFile(file, JSON.stringify({ clients: [] }));
    expect(resourceServers({ OAUTH_CLIENTS_FILE: file })).toEqual([]);
  });

  it('refuses a person scope as an API scope (an API token would carry `email` or `openid`), a fragment, no app, and a token living over an hour', async () => {
    const api = { resource: 'https://notes.example.com/api', scopes: ['notes:read'], clients: ['notes'] };
    for (const bad of [{ ...api, scopes: ['email'] }, { ...api, scopes: ['openid'] }, { ...api, resource: 'https://notes.example.com/api#x' }, { ...api, resource: 'notes' }, { ...api, clients: [] }, { ...api, access_token_ttl: 7200 }]) {
      const read = await declare([bad]);
      expect(read).toThrow();
    }
  });
});

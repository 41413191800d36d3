import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config';
import type { DatabaseHandle } from '../../db/client';
import type { UserRow } from '../users';
import { oidcModels } from '../../db/schema';
import { createDataProtection } from '../../platform/data-protection';
import { sha256 } from '../../platform/crypto';
import { ImageRejected } from '../../platform/square-image';
import { TEST_DATA_KEY } from '../../../test/harness';
import { freshDatabase } from '../../../test/db-target';
import { accountReader, ACCOUNT_TTL_MS } from './accounts';
import { createAdapterFactory } from './adapter';
import { CLIENT_LOGO_SIZE, firstPartyClients, thirdPartyClients } from './clients';
import { loadSigningKeys, rotateSigningKey, RETIRED_KEY_GRACE_SECONDS } from './keys';
import { sweepExpired } from './sweep';

let database: DatabaseHandle;
const secrets = createDataProtection(Buffer.from(TEST_DATA_KEY, 'hex'));

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('signing keys', () => {
  it('are generated once, kept sealed in the database, and a rotation keeps the old key published until its grace ends', async () => {
    const first = await loadSigningKeys(database.db, secrets);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(first[0]!.d).toBeTruthy();
    expect((await loadSigningKeys(database.db, secrets))[0]!.kid).toBe(first[0]!.kid);
    const { oidcKeys } = await import('../../db/schema');
    const [stored] = await database.db.select().from(oidcKeys);
    expect(stored!.sealedJwk).not.toContain(first[0]!.d as string);

    const rotated = await rotateSigningKey(database.db, secrets);
    const after = await loadSigningKeys(database.db, secrets);
    expect(after.map((key) => key.kid)).toEqual([rotated.kid, first[0]!.kid]);

    const later = new Date(Date.now() + (RETIRED_KEY_GRACE_SECONDS + 60) * 1000);
    const again = await rotateSigningKey(database.db, secrets, later);
    expect(again.dropped).toBe(1);
    expect((await loadSigningKeys(database.db, secrets)).map((key) => key.kid)).toEqual([again.kid, rotated.kid]);
  });
});

describe('clients', () => {
  it('reads the checked-in products file for every environment: exact https redirect URIs in production', () => {
    const production = firstPartyClients({ NODE_ENV: 'production', OAUTH_CLIENTS_FILE: undefined, OAUTH_CLIENT_SECRETS: {} });
    const ids = production.map((client) => client.client_id);
    expect(ids).toEqual(expect.arrayContaining(['pwdmanager', 'pwdmanager_enterprise', 'secret', 'bugbounty', 'whitehub_news', 'safechain', 'whitehub', 'vulnscan', 'endpoint', 'trustcenter']));
    for (const client of production) {
      expect(client.first_party).toBe(true);
      if (client.application_type !== 'native') for (const uri of client.redirect_uris!) expect(uri).toMatch(/^https:\/\//);
    }
    expect(firstPartyClients({ NODE_ENV: 'development', OAUTH_CLIENTS_FILE: undefined, OAUTH_CLIENT_SECRETS: {} }).length).toBeGreaterThan(0);
  });

  it('makes a product confidential (secret as SHA-256, client credentials) only when its secret is configured', () => {
    const secret = 'x'.repeat(40);
    const clients = firstPartyClients(loadConfig({ NODE_ENV: 'development', OAUTH_CLIENT_SECRETS: `bugbounty=${secret}` }));
    const bugbounty = clients.find((client) => client.client_id === 'bugbounty')!;
    expect(bugbounty.client_secret).toBe(`sha256:${sha256(secret)}`);
    expect(bugbounty.grant_types).toContain('client_credentials');
    const safechain = clients.find((client) => client.client_id === 'safechain')!;
    expect(safechain.token_endpoint_auth_method).toBe('none');
    expect(safechain.client_secret).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'development', OAUTH_CLIENT_SECRETS: 'bugbounty=short' })).toThrow(/OAUTH_CLIENT_SECRETS/);
  });

  it('registers outside apps with a hashed secret, rotates it, lists and removes them', async () => {
    const registry = thirdPartyClients(database.db);
    const added = await registry.add({ name: 'Outside', redirectUris: ['https://outside.example/cb'] });
    const adapter = createAdapterFactory(database.db)('Client');
    const stored = await adapter.find(added.clientId);
    expect(stored).toMatchObject({ client_id: added.clientId, client_secret: `sha256:${sha256(added.clientSecret!)}`, first_party: false });
    expect(JSON.stringify(stored)).not.toContain(added.clientSecret);
    const rotated = await registry.rotate(added.clientId);
    expect((await adapter.find(added.clientId))!.client_secret).toBe(`sha256:${sha256(rotated!.clientSecret!)}`);
    const spa = await registry.add({ name: 'Public', redirectUris: ['https://spa.example/cb'], public: true });
    expect(spa.clientSecret).toBeUndefined();
    await expect(registry.rotate(spa.clientId)).rejects.toThrow(/public/);
    expect((await registry.list()).map((client) => client.clientId)).toEqual(expect.arrayContaining([added.clientId, spa.clientId]));
    expect(await registry.remove(added.clientId)).toBe(true);
    expect(await adapter.find(added.clientId)).toBeUndefined();
    await expect(registry.add({ name: 'Bad', redirectUris: ['not a url'] })).rejects.toThrow();
  });

  it("keeps an outside app's logo as our own 128 px WebP, versioned in its metadata, and refuses what is not an image", async () => {
    const registry = thirdPartyClients(database.db);
    const adapter = createAdapterFactory(database.db)('Client');
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#1864ab' } }).png().toBuffer();
    const added = await registry.add({ name: 'With Logo', redirectUris: ['https://logo.example/cb'] }, png);
    expect(await adapter.find(added.clientId)).toMatchObject({ portal_logo: 1 });
    const first = await registry.logo(added.clientId);
    expect(await sharp(first!.content).metadata()).toMatchObject({ format: 'webp', width: CLIENT_LOGO_SIZE, height: CLIENT_LOGO_SIZE });

    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } }).jpeg().toBuffer();
    expect(await registry.setLogo(added.clientId, jpeg)).toBe(true);
    expect((await registry.logo(added.clientId))!.version).toBe(2);
    expect(await adapter.find(added.clientId)).toMatchObject({ portal_logo: 2, client_name: 'With Logo' });

    await expect(registry.setLogo(added.clientId, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).rejects.toBeInstanceOf(ImageRejected);
    await expect(registry.add({ name: 'Bad Logo', redirectUris: ['https://bad.example/cb'] }, Buffer.from('GIF89a'))).rejects.toThrow(/PNG, JPEG or WebP/);
    expect((await registry.list()).map((client) => client.name)).not.toContain('Bad Logo');
    expect((await registry.logo(added.clientId))!.version).toBe(2);
    expect(await registry.setLogo('app_missing', png)).toBe(false);
    expect(await registry.remove(added.clientId)).toBe(true);
    expect(await registry.logo(added.clientId)).toBeUndefined();
  });
});

describe('the adapter', () => {
  it('stores models with their lookups, hides expired ones, consumes, and revokes by grant', async () => {
    const adapterFor = createAdapterFactory(database.db);
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1', accountId: 'a', clientId: 'x', sessionUid: 's1' }, 60);
    await codes.upsert('c2', { grantId: 'g2' }, 60);
    expect(await codes.find('c1')).toMatchObject({ grantId: 'g1' });
    await codes.consume('c1');
    expect((await codes.find('c1'))!.consumed).toBeTruthy();
    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await codes.find('c2')).toBeTruthy();
    const devices = adapterFor('DeviceCode');
    await devices.upsert('d1', { userCode: 'BCDFGHJK' }, 60);
    expect(await devices.findByUserCode('BCDFGHJK')).toMatchObject({ userCode: 'BCDFGHJK' });
    const sessions = adapterFor('Session');
    await sessions.upsert('s-id', { uid: 'u1', accountId: 'a' }, 60);
    expect(await sessions.findByUid('u1')).toMatchObject({ uid: 'u1' });
    await codes.upsert('old', { grantId: 'g3' }, 1);
    const { eq } = await import('drizzle-orm');
    await database.db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(oidcModels.id, 'old'));
    expect(await codes.find('old')).toBeUndefined();
    const swept = await sweepExpired(database.db);
    expect(swept.models).toBeGreaterThanOrEqual(1);
    expect((await database.db.select({ id: oidcModels.id }).from(oidcModels).where(eq(oidcModels.id, 'old')))).toEqual([]);
    expect(await codes.find('c2')).toBeTruthy();
  });

  it("looks a token up under several models in one statement, and hands its grant to the next Grant.find once (never after the grant's deletion here)", async () => {
    const adapterFor = createAdapterFactory(database.db);
    const grants = adapterFor('Grant');
    await grants.upsert('g-hand', { accountId: 'a', clientId: 'x', openid: { scope: 'openid' } }, 60);
    await adapterFor('AccessToken').upsert('t-hand', { grantId: 'g-hand', accountId: 'a' }, 60);
    const [access, credentials, refresh] = await Promise.all(['AccessToken', 'ClientCredentials', 'RefreshToken'].map((model) => adapterFor(model).find('t-hand')));
    expect(access).toMatchObject({ grantId: 'g-hand' });
    expect(credentials).toBeUndefined();
    expect(refresh).toBeUndefined();
    expect(await grants.find('g-hand')).toMatchObject({ openid: { scope: 'openid' } });
    await adapterFor('AccessToken').find('t-hand');
    await grants.destroy('g-hand');
    expect(await grants.find('g-hand')).toBeUndefined();
  });
});

describe('the account reader', () => {
  it('reads a person once per short while, never keeps one who asked for deletion, and forgets on demand', async () => {
    const rows = new Map<string, UserRow>([
      ['alive', { id: 'alive', deletionRequestedAt: null, purgedAt: null } as UserRow],
      ['leaving', { id: 'leaving', deletionRequestedAt: new Date(), purgedAt: null } as UserRow],
    ]);
    let reads = 0;
    const accounts = accountReader(async (id) => (reads++, rows.get(id)));
    expect(await accounts.read('alive')).toMatchObject({ id: 'alive' });
    expect(await accounts.read('alive')).toMatchObject({ id: 'alive' });
    expect(reads).toBe(1);
    accounts.forget('alive');
    await accounts.read('alive');
    expect(reads).toBe(2);
    expect(await accounts.read('leaving')).toBeUndefined();
    expect(await accounts.read('nobody')).toBeUndefined();
    vi.useFakeTimers({ now: Date.now() + ACCOUNT_TTL_MS + 1, toFake: ['Date'] });
    try {
      await accounts.read('alive');
      expect(reads).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });
});

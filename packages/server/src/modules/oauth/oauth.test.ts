import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config';
import type { UserRow } from '../users';
import { oidcModels } from '../../db/schema';
import { createDataProtection } from '../../platform/data-protection';
import { sha256 } from '../../platform/crypto';
import { ImageRejected } from '../../platform/square-image';
import { TEST_DATA_KEY } from '../../../test/harness';
import { countStatements } from '../../../test/statement-counter';
import { outputOf, runToolInProcess, toolDatabase } from '../../../test/operator-tools';
import { oauthTool } from '../../cli/oauth-tool';
import { fileDatabase } from '../../../test/db-target';
import { accountReader, ACCOUNT_TTL_MS } from './accounts';
import { createAdapterFactory } from './adapter';
import { CLIENT_LOGO_SIZE, firstPartyClients, thirdPartyClients } from './clients';
import { dropSigningKey, KEY_PUBLISH_AHEAD_SECONDS, loadSigningKeys, publishedKeys, rotateSigningKey, RETIRED_KEY_GRACE_SECONDS, type StoredKey } from './keys';
import { sweepExpired } from './sweep';

const database = fileDatabase();
const secrets = createDataProtection(Buffer.from(TEST_DATA_KEY, 'hex'));

describe('signing keys', () => {
  const kids = (keys: Array<{ kid?: string }>) => keys.map((key) => key.kid);
  const seconds = (from: Date, n: number) => new Date(from.getTime() + n * 1000);

  it('are generated once per algorithm, kept sealed in the database, and a rotation publishes the new keys before they sign', async () => {
    const t0 = new Date();
    const first = await loadSigningKeys(database.db, secrets, t0);
    expect(first.map((key) => [key.kty, key.alg, key.use])).toEqual([
      ['RSA', 'RS256', 'sig'],
      ['EC', 'ES256', 'sig'],
    ]);
    expect(first.every((key) => key.d)).toBe(true);
    expect(kids(await loadSigningKeys(database.db, secrets, t0))).toEqual(kids(first));
    const { oidcKeys } = await import('../../db/schema');
    for (const stored of await database.db.select().from(oidcKeys)) for (const key of first) expect(stored.sealedJwk).not.toContain(key.d as string);

    const rotated = await rotateSigningKey(database.db, secrets, { now: t0 });
    expect(rotated.activatesAt).toEqual(seconds(t0, KEY_PUBLISH_AHEAD_SECONDS));
    expect(rotated.retired).toBe(2);
    // Published at once, the old keys still signing (first of their algorithm) until the new ones' activation.
    expect(kids(await loadSigningKeys(database.db, secrets, seconds(t0, KEY_PUBLISH_AHEAD_SECONDS - 1)))).toEqual([...kids(first), ...rotated.kids]);
    const active = seconds(t0, KEY_PUBLISH_AHEAD_SECONDS);
    expect(kids(await loadSigningKeys(database.db, secrets, active))).toEqual([...rotated.kids, ...kids(first)]);
    // The retired keys stay published for their grace after the new keys' activation, then not.
    expect(kids(await loadSigningKeys(database.db, secrets, seconds(active, RETIRED_KEY_GRACE_SECONDS - 1)))).toEqual([...rotated.kids, ...kids(first)]);
    expect(kids(await loadSigningKeys(database.db, secrets, seconds(active, RETIRED_KEY_GRACE_SECONDS + 1)))).toEqual(rotated.kids);

    // The next rotation drops keys past their grace from the table; --now signs at once.
    const again = await rotateSigningKey(database.db, secrets, { now: seconds(active, RETIRED_KEY_GRACE_SECONDS + 60), immediately: true });
    expect(again.dropped).toBe(2);
    expect(kids(await loadSigningKeys(database.db, secrets, again.activatesAt))).toEqual([...again.kids, ...rotated.kids]);

    // Dropping the last key a node could sign with of one algorithm: the next load makes a new one for it.
    const [againRsa, againEc] = again.kids;
    expect(await dropSigningKey(database.db, againRsa!)).toBe(true);
    expect(await dropSigningKey(database.db, againRsa!)).toBe(false);
    const fresh = await loadSigningKeys(database.db, secrets, seconds(again.activatesAt, 1));
    expect(fresh.map((key) => key.alg)).toEqual(['RS256', 'ES256', 'RS256', 'ES256']);
    expect(kids(fresh)).not.toContain(againRsa);
    expect(kids(fresh)[1]).toBe(againEc);
    expect(kids(fresh).slice(2)).toEqual(rotated.kids);
  });

  it('never leave a reloading node without a current key during a rotation (it would make one of its own)', async () => {
    const { oidcKeys } = await import('../../db/schema');
    const count = async () => (await database.db.select().from(oidcKeys)).length;
    await loadSigningKeys(database.db, secrets);
    const before = await count();
    let rotating = true;
    const rotation = rotateSigningKey(database.db, secrets).finally(() => (rotating = false));
    // Nodes reload throughout the rotation (making the new key pair alone takes tens of milliseconds).
    // (setImmediate between them: PGlite answers within microtasks, which would starve the key generation's callback.)
    const reloads = (async () => {
      while (rotating) {
        await loadSigningKeys(database.db, secrets);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all([rotation, reloads]);
    expect(await count()).toBe(before + 2);
  });

  it('rotate and list as npm run signing-keys against the configured database', async () => {
    // In this process (runToolWith), on a database of its own; cli/ runs the command as a process too.
    const target = await toolDatabase();
    const run = async (...args: string[]) => outputOf(await runToolInProcess(oauthTool, ['keys', ...args], { NODE_ENV: 'development', DATA_ENCRYPTION_KEY: TEST_DATA_KEY, ...target.env }));
    try {
      const rotated = await run('rotate');
      const [, rsa, ec] = /^new signing keys (\S+) \(RS256\), (\S+) \(ES256\): published by every node at its next key reload/.exec(rotated) ?? [];
      expect(rsa && ec).toBeTruthy();
      const listed = await run('list');
      expect(listed).toMatch(new RegExp(`^${rsa}\tRS256\t\\S+\tsigns from \\S+Z$`, 'm'));
      expect(listed).toMatch(new RegExp(`^${ec}\tES256\t\\S+\tsigns from \\S+Z$`, 'm'));
    } finally {
      await target.close();
    }
  }, 120_000);

  it('choose the newest active key to sign, publish the pending and the retired in grace, and sign early only when no key is active yet', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    const key = (kid: string, activates: number, retired?: number, alg = 'RS256'): StoredKey => ({
      kid,
      alg,
      createdAt: seconds(t, activates - KEY_PUBLISH_AHEAD_SECONDS),
      activatesAt: seconds(t, activates),
      retiredAt: retired === undefined ? null : seconds(t, retired),
    });
    const old = key('old', -10_000, 0);
    const current = key('current', 0);
    const next = key('next', 300);
    expect(kids(publishedKeys([old, current, next], t))).toEqual(['current', 'next', 'old']);
    expect(kids(publishedKeys([old, current, next], seconds(t, 300)))).toEqual(['next', 'current', 'old']);
    expect(kids(publishedKeys([old, current], seconds(t, RETIRED_KEY_GRACE_SECONDS)))).toEqual(['current']);
    expect(kids(publishedKeys([key('later', 600), key('soon', 300)], t))).toEqual(['soon', 'later']);
    expect(publishedKeys([], t)).toEqual([]);
    // One signer per algorithm, each first: oidc-provider signs with the first key of the algorithm asked for.
    const ec = key('ec', 0, undefined, 'ES256');
    const ecNext = key('ec-next', 300, undefined, 'ES256');
    expect(kids(publishedKeys([old, current, next, ec, ecNext], t))).toEqual(['current', 'ec', 'next', 'old', 'ec-next']);
    expect(kids(publishedKeys([old, current, next, ec, ecNext], seconds(t, 300)))).toEqual(['next', 'ec-next', 'current', 'old', 'ec']);
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
    const adapter = createAdapterFactory(database.db).adapterFor('Client');
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
    const adapter = createAdapterFactory(database.db).adapterFor('Client');
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
    const { adapterFor } = createAdapterFactory(database.db);
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

  it("holds a provider request's writes until it ends (a second save of a row replaces the first), and a read in the request writes first", async () => {
    const request = {};
    let current: object | undefined = request;
    const storage = createAdapterFactory(database.db, { currentRequest: () => current });
    const refresh = storage.adapterFor('RefreshToken');
    const access = storage.adapterFor('AccessToken');
    await refresh.upsert('rt-held', { grantId: 'g-held', accountId: 'a' }, 60);
    await access.upsert('at-held', { grantId: 'g-held', accountId: 'a' }, 60);
    await refresh.upsert('rt-held', { grantId: 'g-held', accountId: 'a', scope: 'openid' }, 60);
    // Outside the request nothing is stored yet.
    current = undefined;
    expect(await refresh.find('rt-held')).toBeUndefined();
    expect(await access.find('at-held')).toBeUndefined();
    await storage.flushRequest(request);
    expect(await refresh.find('rt-held')).toMatchObject({ scope: 'openid' });
    expect(await access.find('at-held')).toMatchObject({ grantId: 'g-held' });
    await storage.flushRequest(request); // nothing left: no second write

    // Inside the request, its own reads see its writes (they are made first).
    current = request;
    await access.upsert('at-held-2', { grantId: 'g-held', accountId: 'a' }, 60);
    expect(await access.find('at-held-2')).toMatchObject({ grantId: 'g-held' });
    await refresh.upsert('rt-held-2', { grantId: 'g-held', accountId: 'a' }, 60);
    await refresh.consume('rt-held-2');
    await storage.flushRequest(request);
    current = undefined;
    expect((await refresh.find('rt-held-2'))!.consumed).toBeTruthy();
    // Revoking by grant sees every row the request wrote.
    current = request;
    await access.upsert('at-held-3', { grantId: 'g-held', accountId: 'a' }, 60);
    await access.revokeByGrantId('g-held');
    current = undefined;
    expect(await access.find('at-held-3')).toBeUndefined();
  });

  it('marks a token used and saves what replaces it in one statement at the end of the request, or saves nothing and revokes the family when another request used it first', async () => {
    const request = {};
    let current: object | undefined;
    const storage = createAdapterFactory(database.db, { currentRequest: () => current });
    const refresh = storage.adapterFor('RefreshToken');
    const access = storage.adapterFor('AccessToken');
    const grants = storage.adapterFor('Grant');
    await grants.upsert('g-rotate', { accountId: 'a', clientId: 'c' }, 60);
    await refresh.upsert('rt-old', { grantId: 'g-rotate', accountId: 'a' }, 60);
    // A rotation: the old token consumed, the new ones saved, all when the request ends.
    current = request;
    await refresh.consume('rt-old');
    await refresh.upsert('rt-new', { grantId: 'g-rotate', accountId: 'a' }, 60);
    await access.upsert('at-new', { grantId: 'g-rotate', accountId: 'a' }, 60);
    current = undefined;
    expect((await refresh.find('rt-old'))!.consumed).toBeUndefined();
    await storage.flushRequest(request);
    expect((await refresh.find('rt-old'))!.consumed).toBeTruthy();
    expect(await refresh.find('rt-new')).toMatchObject({ grantId: 'g-rotate' });

    // A second request that had read rt-old unused: its tokens are never stored, and the grant's family goes.
    const late = {};
    current = late;
    await refresh.consume('rt-old');
    await refresh.upsert('rt-late', { grantId: 'g-rotate', accountId: 'a' }, 60);
    current = undefined;
    await expect(storage.flushRequest(late)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await refresh.find('rt-late')).toBeUndefined();
    expect(await refresh.find('rt-new')).toBeUndefined();
    expect(await access.find('at-new')).toBeUndefined();
    expect(await grants.find('g-rotate')).toBeUndefined();
  });

  it("reads a resume's remembered grant with its interaction, and never hands over one that the request deleted or that a grant it saved replaces", async () => {
    const request = {};
    let current: object | undefined;
    const storage = createAdapterFactory(database.db, { currentRequest: () => current });
    const grants = storage.adapterFor('Grant');
    const interactions = storage.adapterFor('Interaction');
    await grants.upsert('g-remembered', { accountId: 'acct-r', clientId: 'app-r' }, 60);
    await interactions.upsert('i-remembered', { params: { client_id: 'app-r' }, result: { login: { accountId: 'acct-r' } } }, 60);
    const remembered = async () => {
      let grantId: string | undefined;
      const counted = await countStatements(async () => (grantId = await storage.rememberedGrant('acct-r', 'app-r')), { settleMs: 0 });
      return { grantId, statements: counted.count };
    };
    await storage.rememberedGrant('acct-nobody', 'app-r'); // its statement prepared: one exchange from now on

    // Read with the interaction: no statement of its own, and once only.
    current = request;
    expect(await interactions.find('i-remembered')).toMatchObject({ params: { client_id: 'app-r' } });
    expect(await remembered()).toEqual({ grantId: 'g-remembered', statements: 0 });
    expect(await remembered()).toEqual({ grantId: 'g-remembered', statements: 1 });
    // Another person's or app's: read from the database.
    await interactions.find('i-remembered');
    expect(await storage.rememberedGrant('acct-other', 'app-r')).toBeUndefined();

    // The request deletes the grant after reading it with the interaction: it is not handed over.
    await interactions.find('i-remembered');
    await grants.destroy('g-remembered');
    expect(await remembered()).toEqual({ grantId: undefined, statements: 1 });

    // The request saves a newer grant for them: that one is remembered, not the one read before.
    await grants.upsert('g-older', { accountId: 'acct-r', clientId: 'app-r' }, 60);
    await storage.flushRequest(request);
    await interactions.find('i-remembered');
    await grants.upsert('g-newer', { accountId: 'acct-r', clientId: 'app-r' }, 120);
    expect((await remembered()).grantId).toBe('g-newer');
    current = undefined;
  });

  it('saves interactions alone without waiting for the disk, for their own transaction only: the next statement commits as before', async () => {
    const storage = createAdapterFactory(database.db);
    await storage.adapterFor('Interaction').upsert('i-unflushed', { params: { client_id: 'app-u' } }, 60);
    expect(await storage.adapterFor('Interaction').find('i-unflushed')).toMatchObject({ params: { client_id: 'app-u' } });
    const { sql } = await import('drizzle-orm');
    const shown = (await database.db.execute(sql`show synchronous_commit`)) as unknown as { rows: Array<{ synchronous_commit: string }> };
    expect(shown.rows[0]!.synchronous_commit).toBe('on');
  });

  it("looks a token up under several models in one statement, and hands its grant to the next Grant.find once (never after the grant's deletion here)", async () => {
    const { adapterFor } = createAdapterFactory(database.db);
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

import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/db-target';
import { startTestServer, type TestServer } from '../../test/harness';
import { identityClient } from '../../test/identity';
import { loadConfig } from '../config';
import { recoveryCodes, users } from '../db/schema';
import { createDataProtection, DATA_KEY_FILE, DataKeyMismatch, loadDataKey, parseDataKey } from './data-protection';
import { sha256 } from './crypto';
import { safeError } from './logger';

const key = Buffer.alloc(32, 7);

describe('data protection', () => {
  const protect = createDataProtection(key);

  it('seals so that only the key opens, and reads values stored before sealing as they are', () => {
    const sealed = protect.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(protect.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(protect.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(protect.open('JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => createDataProtection(Buffer.alloc(32, 8)).open(sealed)).toThrow(DataKeyMismatch);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => protect.open(tampered)).toThrow(DataKeyMismatch);
    expect(() => protect.open('v1::')).toThrow(DataKeyMismatch);
  });

  it('refuses a sealed value whose authentication tag was cut short (GCM checks only the bytes it is given)', () => {
    const [iv, body] = protect.seal('').slice('v1:'.length).split(':') as [string, string];
    // The empty plaintext's whole body is its 16-byte tag: its first 4 bytes would pass a check
    // that takes the tag's length from the value, so a forger had 2^32 tries, not 2^128.
    const shortTag = Buffer.from(body, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => protect.open(`v1:${iv}:${shortTag}`)).toThrow(DataKeyMismatch);
  });

  it('hashes with the key: the same value hashes apart under another key', () => {
    expect(protect.keyedHash('x')).toMatch(/^k1:[0-9a-f]{64}$/);
    expect(protect.keyedHash('x')).toBe(protect.keyedHash('x'));
    expect(createDataProtection(Buffer.alloc(32, 8)).keyedHash('x')).not.toBe(protect.keyedHash('x'));
  });

  it('takes the key from DATA_ENCRYPTION_KEY, or generates and keeps one in DATA_DIR', async () => {
    expect(parseDataKey('ab'.repeat(32))).toEqual(Buffer.alloc(32, 0xab));
    expect(parseDataKey(Buffer.alloc(32, 1).toString('base64'))).toEqual(Buffer.alloc(32, 1));
    expect(parseDataKey('short')).toBeNull();
    expect(() => loadConfig({ NODE_ENV: 'development', DATA_ENCRYPTION_KEY: 'short' })).toThrow(/DATA_ENCRYPTION_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production', ALTCHA_HMAC_KEY: 'a-key-of-enough-length', DATABASE_URL: 'postgres://db/x' })).toThrow(/DATA_ENCRYPTION_KEY: required/);
    expect(loadDataKey({ DATA_ENCRYPTION_KEY: 'ab'.repeat(32), DATA_DIR: '/nonexistent' })).toEqual(Buffer.alloc(32, 0xab));

    const dir = await mkdtemp(path.join(tmpdir(), 'data-key-'));
    try {
      const first = loadDataKey({ DATA_ENCRYPTION_KEY: undefined, DATA_DIR: path.join(dir, 'db') });
      const file = path.join(dir, 'db', DATA_KEY_FILE);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(parseDataKey(await readFile(file, 'utf8'))).toEqual(first);
      expect(loadDataKey({ DATA_ENCRYPTION_KEY: undefined, DATA_DIR: path.join(dir, 'db') })).toEqual(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('database errors in logs', () => {
  it('keep the failed statement but not the values bound to it', async () => {
    const database = await freshDatabase();
    try {
      const now = new Date();
      const row = { id: randomUUID(), email: 'private-person@example.com', fullName: 'Private', createdAt: now, updatedAt: now };
      await database.db.insert(users).values(row);
      const error = await database.db.insert(users).values({ ...row, id: randomUUID() }).then(() => null, (failure: Error) => failure);
      expect(error).not.toBeNull();
      expect(JSON.stringify({ ...error, message: error!.message, stack: error!.stack })).toContain('private-person@example.com');
      const logged = JSON.stringify(safeError(error!));
      expect(logged).toContain('Failed query: insert into');
      expect(logged).not.toContain('private-person@example.com');
      expect(logged).not.toContain(row.id);
    } finally {
      await database.close();
    }
  });
});

describe('second-factor secrets at rest (HTTP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const call = (method: 'GET' | 'POST', url: string, token: string, body?: object) =>
    server.app.inject({ method, url, payload: body, headers: { authorization: `Bearer ${token}` } });
  const userRow = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email)))[0]!;

  it('stores the TOTP seed sealed and recovery codes keyed, and both still work', async () => {
    const client = identityClient(server.app, server.database);
    const email = 'sealed-seed@example.com';
    const token = await client.registeredUser(email);
    const { secret } = (await call('POST', '/v3/sso/me/2fa/totp/setup', token)).json();
    const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', token, { code: await generate({ secret }) });
    expect(enabled.statusCode).toBe(200);
    const codes: string[] = enabled.json().recovery_codes;

    const stored = await userRow(email);
    expect(stored.totpSecret).toMatch(/^v1:/);
    expect(stored.totpSecret).not.toContain(secret);
    const hashes = (await server.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, stored.id))).map((row) => row.codeHash);
    expect(hashes.every((hash) => hash.startsWith('k1:'))).toBe(true);
    expect(hashes).not.toContain(sha256(`recovery:${codes[0]!.replace('-', '')}`));

    const challenge = (await client.signIn(email, 'plum-orbit-cactus-917')).json().mfa_token as string;
    const done = await client.post('/v3/sso/auth/mfa', { mfa_token: challenge, recovery_code: codes[0] });
    expect(done.statusCode).toBe(200);
    expect(done.json().token).toBeDefined();
  });

  it('protects what was stored before, at the next start, and the old seed and codes keep working', async () => {
    const client = identityClient(server.app, server.database);
    const email = 'legacy-seed@example.com';
    await client.registeredUser(email);
    const user = await userRow(email);
    const legacySecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const legacyCode = 'ABCDE-12345';
    // As the previous release stored them: the seed in clear, the code as bare SHA-256.
    await server.database.db.update(users).set({ twoFactorMethod: 'totp', totpSecret: legacySecret }).where(eq(users.id, user.id));
    await server.database.db.insert(recoveryCodes).values({ id: randomUUID(), userId: user.id, codeHash: sha256(`recovery:${legacyCode.replace('-', '')}`), createdAt: new Date() });

    const restarted = await startTestServer({ database: server.database });
    try {
      const after = await userRow(email);
      expect(after.totpSecret).toMatch(/^v1:/);
      const [code] = await server.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      expect(code!.codeHash).toMatch(/^k1:/);

      const viaRestarted = identityClient(restarted.app, restarted.database);
      const first = (await viaRestarted.signIn(email, 'plum-orbit-cactus-917')).json().mfa_token as string;
      const byTotp = await viaRestarted.post('/v3/sso/auth/mfa', { mfa_token: first, code: await generate({ secret: legacySecret }) });
      expect(byTotp.statusCode).toBe(200);
      const second = (await viaRestarted.signIn(email, 'plum-orbit-cactus-917')).json().mfa_token as string;
      const byCode = await viaRestarted.post('/v3/sso/auth/mfa', { mfa_token: second, recovery_code: legacyCode });
      expect(byCode.statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { migratedDataDir } from '../test/db-target';
import { serverCommand, serverProcessEnv } from '../test/server-bundle';
import { openDatabase } from './db/client';
import { loadSigningKeys } from './modules/oauth';
import { createDataProtection } from './platform/data-protection';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the server process (src/main.ts) at start', () => {
  it('refuses a data key that does not open the stored secrets, in one line that names the setting', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'main-data-key-'));
    try {
      // A database whose signing keys were sealed under one key, as its first start leaves it
      // (migrated: the run's snapshot).
      const written = randomBytes(32);
      const dataDir = await migratedDataDir(path.join(dir, 'db'));
      const database = await openDatabase({ dataDir });
      try {
        await loadSigningKeys(database.db, createDataProtection(written));
      } finally {
        await database.close();
      }

      const start = promisify(execFile)(process.execPath, serverCommand('main'), {
        cwd: ROOT,
        // Another key: the process must stop before it listens (port 0 would be any free one if it did not).
        env: serverProcessEnv({ NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'), SEED_DEMO: 'false', LOG_LEVEL: 'warn' }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      const failure = await start.then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('cannot start: secrets stored in the database do not open with this data key');
      expect(failure?.stderr).toContain('DATA_ENCRYPTION_KEY');
      // Not the cipher's own words, nor a stack trace.
      expect(failure?.stderr).not.toContain('unable to authenticate data');
      expect(failure?.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses a setting it cannot read, listing the problem without a stack trace', async () => {
    const failure = await promisify(execFile)(process.execPath, serverCommand('main'), {
      cwd: ROOT,
      env: serverProcessEnv({ NODE_ENV: 'development', PORT: 'not-a-port', LOG_LEVEL: 'warn' }),
      encoding: 'utf8',
      timeout: 60_000,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('Invalid configuration:');
    expect(failure?.stderr).toContain('PORT');
    expect(failure?.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});

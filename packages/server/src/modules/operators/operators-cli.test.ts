import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { operatorRoles, users } from '../../db/schema';
import { runOperatorCommand } from '../../../test/server-bundle';

describe('npm run operators', () => {
  it('grants, lists and revokes roles of activated accounts against the configured database, keeping one owner', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-operators-cli-'));
    const dataDir = path.join(dir, 'db');
    const run = (...args: string[]) => runOperatorCommand('operators-admin', args, { NODE_ENV: 'development', DATA_DIR: dataDir });
    try {
      const now = new Date();
      const seed = await openDatabase({ dataDir });
      await migrate(seed);
      await seed.db.insert(users).values([
        { id: randomUUID(), email: 'first@example.com', fullName: 'First Owner', activatedAt: now, createdAt: now, updatedAt: now },
        { id: randomUUID(), email: 'helper@example.com', fullName: 'Helper', activatedAt: now, createdAt: now, updatedAt: now },
        { id: randomUUID(), email: 'pending@example.com', fullName: 'Not Activated', activatedAt: null, createdAt: now, updatedAt: now },
      ]);
      await seed.close();

      expect(await run('list')).toMatch(/no operators yet/);
      expect(await run('grant', 'First@Example.com', 'owner')).toBe('first@example.com holds owner\n');
      expect(await run('grant', 'helper@example.com', 'support')).toBe('helper@example.com holds support\n');
      expect(await run('grant', 'helper@example.com', 'finance')).toBe('helper@example.com holds finance, support\n');
      await expect(run('grant', 'pending@example.com', 'owner')).rejects.toThrow(/No activated account has this email/);
      await expect(run('grant', 'nobody@example.com', 'owner')).rejects.toThrow(/No activated account has this email/);
      await expect(run('grant', 'helper@example.com', 'root')).rejects.toThrow(/usage: npm run operators/);
      await expect(run('revoke', 'first@example.com', 'owner')).rejects.toThrow(/at least one owner/);
      expect(await run('revoke', 'helper@example.com', 'support')).toBe('helper@example.com no longer holds support\n');
      expect(await run('list')).toBe('first@example.com\towner\nhelper@example.com\tfinance\n');

      const check = await openDatabase({ dataDir });
      try {
        const rows = await check.db.select({ role: operatorRoles.role }).from(operatorRoles);
        expect(rows.map((row) => row.role).sort()).toEqual(['finance', 'owner']);
      } finally {
        await check.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

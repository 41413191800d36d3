import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolInProcess, toolDatabase } from '../../test/operator-tools';
import { users } from '../db/schema';
import { walletTool } from './wallet-tool';

/** `npm run wallet -- adjust` on the configured database, in this process (runToolWith). */
let database: Awaited<ReturnType<typeof toolDatabase>>;
const wallet = (...args: string[]) => runToolInProcess(walletTool, args, { NODE_ENV: 'development', ...database.env });

beforeAll(async () => {
  database = await toolDatabase();
  const now = new Date();
  await database.use((db) => db.insert(users).values({ id: randomUUID(), email: 'ada@example.com', fullName: 'Ada', activatedAt: now, createdAt: now, updatedAt: now }));
}, 120_000);
afterAll(() => database?.close());

describe('npm run wallet -- adjust', () => {
  it('takes money out with a leading minus, as its usage says, wherever the note stands', async () => {
    const added = await wallet('adjust', 'ada@example.com', 'USD', '10', '--note', 'Bank transfer');
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe('ada@example.com: USD balance now 1000 (minor units)\n');
    const out = await wallet('adjust', 'ada@example.com', 'USD', '-4', '--note', 'Correction');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('ada@example.com: USD balance now 600 (minor units)\n');
    const noteFirst = await wallet('adjust', '--note', 'Correction', 'ada@example.com', 'USD', '-1.50');
    expect(noteFirst.stdout).toBe('ada@example.com: USD balance now 450 (minor units)\n');
  }, 120_000);

  it('refuses an unknown option and a fourth argument with its usage (exit 2), and an unknown account in words (exit 1)', async () => {
    const unknownOption = await wallet('adjust', 'ada@example.com', 'USD', '5', '--memo', 'x');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("'--memo'");
    expect(unknownOption.stderr).toContain('usage: npm run wallet');
    const extra = await wallet('adjust', 'ada@example.com', 'USD', '5', 'more', '--note', 'x');
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('unexpected argument: more');
    const nobody = await wallet('adjust', 'nobody@example.com', 'USD', '5', '--note', 'x');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toBe('no account has the email or username nobody@example.com\n');
  }, 120_000);
});

import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createArgon2Threads } from './argon2-threads';

const LIGHT = { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe('argon2 threads', () => {
  it('answers every job right when more are sent at once than there are threads', async () => {
    const argon2 = createArgon2Threads(2);
    const passwords = Array.from({ length: 10 }, (_, i) => `password-${i}`);
    const hashes = await Promise.all(passwords.map((password) => argon2.hash(password, LIGHT)));
    expect(hashes.every((hash) => hash.startsWith('$argon2id$v=19$m=1024,t=1,p=1$'))).toBe(true);
    // Each hash against its own password and its neighbour's, all in flight together.
    const checks = await Promise.all(passwords.flatMap((password, i) => [argon2.verify(hashes[i]!, password), argon2.verify(hashes[(i + 1) % 10]!, password)]));
    expect(checks).toEqual(passwords.flatMap(() => [true, false]));
  });

  it('names its threads argon2, as /proc shows them (the bench reads their CPU by that name)', async () => {
    const named = () => readdirSync('/proc/self/task').filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'argon2').length;
    const before = named();
    const argon2 = createArgon2Threads(2);
    await Promise.all([argon2.hash('one', LIGHT), argon2.hash('two', LIGHT)]);
    expect(named() - before).toBe(2);
    await argon2.terminate();
  });

  it('refuses a hash it cannot read with an error, and goes on working', async () => {
    const argon2 = createArgon2Threads(1);
    await expect(argon2.verify('not-a-hash', 'x')).rejects.toThrow();
    expect(await argon2.verify(await argon2.hash('still here', LIGHT), 'still here')).toBe(true);
  });

  it('fails the jobs of a thread that stopped, and starts a new one for the next job', async () => {
    const argon2 = createArgon2Threads(2);
    // Slow enough (~64 MiB, 8 passes) to be in flight when the threads end.
    const slow = { ...LIGHT, memoryCost: 65_536, timeCost: 8 };
    const inFlight = Promise.allSettled([argon2.hash('one', slow), argon2.hash('two', slow), argon2.hash('three', slow)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await argon2.terminate();
    const outcomes = await inFlight;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/argon2 thread stopped/);
    const hashes = await Promise.all([argon2.hash('after', LIGHT), argon2.hash('after too', LIGHT)]);
    expect(await argon2.verify(hashes[0]!, 'after')).toBe(true);
    expect(await argon2.verify(hashes[1]!, 'after too')).toBe(true);
  });

  it('keeps a process alive while it works, and lets it end once idle', async () => {
    // A script whose only pending work is a hash: unref'd threads would end it before the
    // answer, threads left ref'd would keep it from ever ending.
    const module = fileURLToPath(new URL('./argon2-threads.ts', import.meta.url));
    const script = `import { createArgon2Threads } from ${JSON.stringify(module)};
      createArgon2Threads(1).hash('alive', ${JSON.stringify(LIGHT)}).then((hash) => console.log(hash.slice(0, 9)));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('$argon2id');
  });
});

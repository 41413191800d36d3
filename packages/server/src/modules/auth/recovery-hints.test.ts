import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { users } from '../../db/schema';
import { limits } from '../../platform/rate-limit';
import { decoyEmail } from './decoy-email';

/**
 * Recovery hints must not tell whether an account exists: a wrong recovery email answers with
 * a hint of the same shape and alphabet, the same every time, whether or not the identifier
 * (an email or a username) has an account. The username check of the profile is limited.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const SAMPLES = 200;
const NAMES = ['an', 'binh', 'chi', 'duc', 'giang', 'hoa', 'khanh', 'lan', 'minh', 'nga', 'phuong', 'quang', 'son', 'thao', 'tuan', 'vy', 'john', 'mary', 'peter', 'linda', 'alex', 'kim', 'ravi', 'sofia'];
const PROVIDERS = ['gmail.com', 'gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'proton.me', 'fpt.com.vn'];

/** Addresses people have: a name, sometimes a second one and digits, at a common provider. */
function realisticEmail(index: number, salt: string): string {
  const name = NAMES[(index * 7 + salt.length) % NAMES.length]!;
  const second = index % 3 === 0 ? `.${NAMES[(index * 5) % NAMES.length]}` : '';
  const digits = index % 2 === 0 ? String((index * 37) % 100) : '';
  return `${name}${second}${digits}.${salt}${index}@${PROVIDERS[index % PROVIDERS.length]}`;
}

let visitors = 0;
const verifyEmail = (identifier: string, email: string) =>
  server.app.inject({ method: 'POST', url: '/v3/sso/password/forgot/verify-email', remoteAddress: `10.55.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`, payload: { identifier, email } });

/** The body with every letter and digit reduced to its class: what "shape" means here. */
const shape = (body: string) => body.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '9');
/** The letters a hint shows (the masked parts), in order. */
const shownLetters = (hint: string) => hint.replace(/\*/g, '').replace(/[@.]/g, '');

async function insertUsers(rows: Array<{ email: string; username?: string }>): Promise<void> {
  const now = new Date();
  await server.database.db.insert(users).values(rows.map((row) => ({ id: randomUUID(), email: row.email, username: row.username ?? null, fullName: 'Hint Test', activatedAt: now, createdAt: now, updatedAt: now })));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('decoyEmail', () => {
  it('is stable per identifier and key, and different across them', () => {
    expect(decoyEmail('Ghost', 'k1')).toBe(decoyEmail('ghost ', 'k1'));
    expect(decoyEmail('ghost', 'k1')).not.toBe(decoyEmail('ghost', 'k2'));
    expect(decoyEmail('ghost', 'k1')).not.toBe(decoyEmail('ghast', 'k1'));
    expect(decoyEmail('ghost', 'k1')).toMatch(/^[a-z]+([._]?[a-z]+)?\d*@[a-z.]+$/);
  });
});

describe('recovery hints (HTTP)', () => {
  it(`a known and an unknown email answer alike in shape over ${SAMPLES} samples, with a median time gap under 5 ms`, async () => {
    // Paired addresses of the same shape; two tries each (the third would ask for the captcha).
    const pairs = Array.from({ length: SAMPLES / 2 }, (_, index) => ({ known: realisticEmail(index, 'known'), unknown: realisticEmail(index, 'ghost') }));
    await insertUsers(pairs.map(({ known }) => ({ email: known })));
    const times = { known: [] as number[], unknown: [] as number[] };
    const shapes = { known: [] as string[], unknown: [] as string[] };
    for (let round = 0; round < 2; round++) {
      for (const pair of pairs) {
        for (const kind of ['known', 'unknown'] as const) {
          const started = performance.now();
          const response = await verifyEmail(pair[kind], 'not-mine@example.org');
          times[kind].push(performance.now() - started);
          expect(response.statusCode).toBe(400);
          shapes[kind].push(`${response.statusCode} ${shape(response.body)}`);
        }
      }
    }
    expect(shapes.known).toHaveLength(SAMPLES);
    expect(shapes.known).toEqual(shapes.unknown);
    // Timing is noisy on a shared machine; the median of 200 is what an attacker would use.
    expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(5);
  }, 180_000);

  it('a username with no account gets a hint like a real one: same alphabet, same providers, stable', async () => {
    const real = Array.from({ length: 60 }, (_, index) => ({ username: `member${index}x`, email: realisticEmail(index, `m${index}`) }));
    await insertUsers(real);
    const hintOf = async (identifier: string) => (await verifyEmail(identifier, 'not-mine@example.org')).json().details.hint as string;
    const realHints = await Promise.all(real.map(({ username }) => hintOf(username)));
    const decoys = await Promise.all(Array.from({ length: 60 }, (_, index) => hintOf(`nobody${index}x`)));

    const grammar = /^[a-z0-9._]{1,2}\*\*\*[a-z0-9._]?@[a-z]\*\*\*(\.[a-z]+)+$/;
    for (const hint of [...realHints, ...decoys]) expect(hint).toMatch(grammar);
    expect(new Set(decoys.map(shape)).size).toBeGreaterThan(1);
    // The letters shown come from the whole alphabet, as real names do, not from a hex digest.
    const decoyLetters = new Set(decoys.flatMap((hint) => [...shownLetters(hint)]));
    expect([...decoyLetters].filter((letter) => letter > 'f' && letter <= 'z').length).toBeGreaterThan(8);
    // The domain initial and ending come from providers real people use.
    const endings = new Set(decoys.map((hint) => hint.split('***').at(-1)));
    expect(endings.size).toBeGreaterThanOrEqual(3);
    // The same hint every time (a random one would give the decoy away on the second ask).
    expect(await hintOf('nobody1x')).toBe(decoys[1]);
  });

  it('keeps decoys stable across nodes that share the data key', async () => {
    const other = await startTestServer({ database: server.database });
    try {
      const ask = (app: TestServer) =>
        app.app.inject({ method: 'POST', url: '/v3/sso/password/forgot/verify-email', remoteAddress: '10.56.0.1', payload: { identifier: 'nobody-two-nodes', email: 'x@example.org' } });
      expect((await ask(other)).json().details.hint).toBe((await ask(server)).json().details.hint);
    } finally {
      await other.close();
    }
  });
});

describe('the username check of the profile (HTTP)', () => {
  it(`answers "taken" at most ${limits.usernameChecksPerAccount.limit} times an hour per account`, async () => {
    const client = identityClient(server.app, server.database);
    const token = await client.registeredUser('username-prober@example.com');
    await insertUsers([{ email: 'holder@example.com', username: 'takenname' }]);
    const put = (username: string) =>
      server.app.inject({ method: 'PUT', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` }, payload: { full_name: 'Prober', username, language: 'en' } });
    // Keeping one's own username asks nothing, however often.
    expect((await put('proberself')).statusCode).toBe(200);
    for (let index = 0; index < 5; index++) expect((await put('proberself')).statusCode).toBe(200);
    // The first change (to proberself) was one check; the rest of the allowance answers "taken".
    const answers: number[] = [];
    for (let index = 1; index < limits.usernameChecksPerAccount.limit; index++) answers.push((await put('takenname')).statusCode);
    expect(answers).toEqual(Array(limits.usernameChecksPerAccount.limit - 1).fill(400));
    const limited = await put('takenname');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
  });
});

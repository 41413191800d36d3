import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { solveCaptcha } from '../../../test/captcha';

let server: TestServer;
let client: ReturnType<typeof identityClient>;

beforeAll(async () => {
  server = await startTestServer();
  client = identityClient(server.app, server.database);
  await client.registeredUser('known@example.com');
});
afterAll(() => server.close());

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs `call` for the known and the unknown email in turn; returns both responses and median times. */
async function compare(call: (email: string, index: number) => Promise<{ statusCode: number; body: string }>, rounds = 7) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const bodies = { known: new Set<string>(), unknown: new Set<string>() };
  for (let index = 0; index < rounds; index += 1) {
    for (const kind of ['known', 'unknown'] as const) {
      const started = performance.now();
      const response = await call(kind === 'known' ? 'known@example.com' : `unknown${index}@example.com`, index);
      times[kind].push(performance.now() - started);
      bodies[kind].add(`${response.statusCode} ${response.body.replace(/unknown\d+@/g, 'X@').replace(/known@/g, 'X@')}`);
    }
  }
  return { bodies, known: median(times.known), unknown: median(times.unknown) };
}

/** Medians within 40% of each other (argon2 dominates both paths, ~12-25 ms). */
function expectSimilar(a: number, b: number) {
  expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(1.4);
}

describe('no account enumeration', () => {
  it('sign-in: same answer and time for a wrong password and an unknown email', async () => {
    const result = await compare((email) => client.signIn(email, 'wrong-password-here'), 7);
    expect([...result.bodies.known]).toEqual([...result.bodies.unknown].slice(0, result.bodies.known.size));
    expectSimilar(result.known, result.unknown);
  });

  it('sign-up: same answer and time for a taken and a new email', async () => {
    const result = await compare(async (email) =>
      client.post('/v3/sso/users', {
        full_name: 'Probe',
        email,
        password: 'plum-orbit-cactus-917',
        accept_terms: true,
        captcha: await solveCaptcha(server.app),
      }),
    5);
    expect(result.bodies.known).toEqual(result.bodies.unknown);
    expectSimilar(result.known, result.unknown);
  });

  it('recovery: same answer and time for an existing and an unknown email', async () => {
    const result = await compare((email) => client.post('/v3/sso/password/forgot/verify-email', { identifier: email, email }), 3);
    expect(result.bodies.known).toEqual(result.bodies.unknown);
  });
});

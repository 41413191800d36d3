import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { solveCaptcha } from '../../../test/captcha';

let server: TestServer;
let client: ReturnType<typeof identityClient>;

beforeAll(async () => {
  server = await startTestServer();
  client = identityClient(server.app, server.database);
  for (let index = 0; index < 7; index += 1) await client.registeredUser(`known${index}@example.com`);
});
afterAll(() => server.close());

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Runs `call` for the known and the unknown email in turn, `rounds` times; returns the sequence
 * of answers (emails blanked) and the median time of each. Which goes first alternates by round:
 * work a known account's request leaves behind (the recovery mail) that outlasts the pause on a
 * loaded machine then slows the known and the unknown side alike, not always the call after it
 * (CI once measured medians of 12 and 33 ms that way).
 */
async function compare(call: (email: string) => Promise<{ statusCode: number; body: string }>, unknownEmail: (round: number) => string, rounds: number, knownEmail = (_round: number) => 'known0@example.com') {
  const times = { known: [] as number[], unknown: [] as number[] };
  const answers = { known: [] as string[], unknown: [] as string[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const kind of round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
      const email = kind === 'known' ? knownEmail(round) : unknownEmail(round);
      const started = performance.now();
      const response = await call(email);
      times[kind].push(performance.now() - started);
      // Let work a request leaves behind (mail in the background) finish, as an attacker spacing probes would.
      await new Promise((resolve) => setTimeout(resolve, 40));
      answers[kind].push(`${response.statusCode} ${response.body.split(email).join('<email>')}`);
    }
  }
  if (process.env.DEBUG_TIMING) console.log(JSON.stringify(times));
  return { answers, known: median(times.known), unknown: median(times.unknown) };
}

/**
 * Medians within 60% (or 10 ms) of each other: loose enough for a loaded 2-core machine, tight
 * enough to catch a path that skips the password hash (which makes it several times faster).
 */
function expectSimilar(a: number, b: number) {
  expect(Math.abs(a - b)).toBeLessThan(Math.max(10, 0.6 * Math.max(a, b)));
}

describe('no account enumeration', () => {
  it('sign-in: same answer and time for a wrong password and an unknown email', async () => {
    // A fresh account each round on both sides, so every attempt runs the full password check.
    const result = await compare(
      (email) => client.signIn(email, 'wrong-password-here'),
      (round) => `unknown${round}@example.com`,
      7,
      (round) => `known${round}@example.com`,
    );
    expect(result.answers.known).toEqual(result.answers.unknown);
    expectSimilar(result.known, result.unknown);
  });

  it('sign-up: same answer and time for a taken and a new email', async () => {
    const result = await compare(
      async (email) =>
        client.post('/v3/sso/users', { full_name: 'Probe', email, password: 'plum-orbit-cactus-917', accept_terms: true, captcha: await solveCaptcha(server.app) }),
      (round) => `new${round}@example.com`,
      5,
    );
    expect(result.answers.known).toEqual(result.answers.unknown);
    expectSimilar(result.known, result.unknown);
  });

  it('recovery: same answer and time for an existing and an unknown email', async () => {
    const result = await compare(
      (email) => client.post('/v3/sso/password/forgot/verify-email', { identifier: email, email }),
      (round) => `missing${round}@example.com`,
      7,
      (round) => `known${round}@example.com`,
    );
    expect(result.answers.known).toEqual(result.answers.unknown);
    expectSimilar(result.known, result.unknown);
  });
});

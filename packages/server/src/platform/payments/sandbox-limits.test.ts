import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { limits } from '../rate-limit';

/**
 * The sandbox's tokenization answers whether a card number is valid: unlimited, it would be a
 * free card-checking service. Each limit must hold when the requests arrive all at once.
 */
let server: TestServer;
let client: ReturnType<typeof identityClient>;

beforeAll(async () => {
  server = await startTestServer();
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

const tokenize = (remoteAddress: string, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: 'POST',
    url: '/v3/billing/sandbox/tokens',
    remoteAddress,
    headers,
    payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' },
  });

const statuses = (responses: { statusCode: number }[]) => responses.map((response) => response.statusCode);
const count = (codes: number[], code: number) => codes.filter((value) => value === code).length;

describe('sandbox tokenization limits', () => {
  it('lets one address tokenize 50 cards an hour, however many arrive at once', async () => {
    const { limit } = limits.cardTokensPerIp;
    const codes = statuses(await Promise.all(Array.from({ length: limit + 15 }, () => tokenize('10.9.0.1'))));
    expect(count(codes, 201)).toBe(limit);
    expect(count(codes, 429)).toBe(15);

    const refused = await tokenize('10.9.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused.body).not.toContain('4242');
    // Another address is not affected.
    expect((await tokenize('10.9.0.2')).statusCode).toBe(201);
  });

  it('lets one signed-in account tokenize 10 cards an hour from any number of addresses', async () => {
    const session = await client.registeredUser('tokens@example.com');
    const { limit } = limits.cardTokensPerAccount;
    const auth = { authorization: `Bearer ${session}` };
    const codes = statuses(await Promise.all(Array.from({ length: limit + 6 }, (_, i) => tokenize(`10.8.0.${i + 1}`, auth))));
    expect(count(codes, 201)).toBe(limit);
    expect(count(codes, 429)).toBe(6);
    // Signed out, the same addresses still may.
    expect((await tokenize('10.8.0.1')).statusCode).toBe(201);
  });
});

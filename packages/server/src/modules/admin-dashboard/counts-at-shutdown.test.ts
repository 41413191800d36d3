import { request as httpRequest } from 'node:http';
import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { freshDatabase } from '../../../test/db-target';
import { startTestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { dashboardCounters } from './tables';

/**
 * A node holds its counts in memory for up to a second before it writes them. A clean shutdown
 * (SIGTERM: app.close, then the database) must write every count it holds, including those of
 * sign-ins still in flight when the shutdown began: nobody else will.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const SIGN_INS = 6;

// The node's own database outlives it, as main.ts closes the database after the app.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.close());

/** A POST on a connection of its own that closes after the answer, as a browser's would at shutdown: its status. */
function post(url: string, body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const signInsCounted = async () => {
  const [row] = await database.db.select({ total: sum(dashboardCounters.count) }).from(dashboardCounters).where(eq(dashboardCounters.metric, 'sign_in'));
  return Number(row?.total ?? 0);
};

describe("a node's counts at a clean shutdown", () => {
  it('are all in the table once the node has closed, those of sign-ins in flight at its start too', async () => {
    const server = await startTestServer({ database, listen: true });
    const email = 'shutdown-counts@example.com';
    await identityClient(server.app, database).registeredUser(email, PASSWORD);
    // Past an interval: what the registration counted is written, the next count opens a new one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = await signInsCounted();
    // Written at once; the counts of the next second wait in memory for the interval's end.
    expect(await post(`${server.url}/v3/sso/auth`, { email, password: PASSWORD })).toBe(200);

    const inFlight = Array.from({ length: SIGN_INS }, () => post(`${server.url}/v3/sso/auth`, { email, password: PASSWORD }));
    // The shutdown starts once the first answer is out: sign-ins under way finish, later ones get a 503.
    await Promise.race(inFlight);
    await server.close();
    const statuses = await Promise.all(inFlight);

    expect(statuses.every((status) => status === 200 || status === 503), statuses.join(' ')).toBe(true);
    const signedIn = statuses.filter((status) => status === 200).length;
    expect(await signInsCounted()).toBe(before + 1 + signedIn);
  });
});

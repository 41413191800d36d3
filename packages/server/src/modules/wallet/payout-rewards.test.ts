import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OTHER_SECRET, payoutTestServer } from '../../../test/payouts';
import { clientCredentialsToken } from '../../../test/harness';
import { rows } from './ledger';

/**
 * Rewards as the bug-bounty product's back end posts them: recorded once per reward id, every
 * field validated, only that product's client token accepted, cancelled while not paid.
 */
const bountyServer = payoutTestServer();
const { researcher, personAccessToken, inject, rewardBody, postReward } = bountyServer;

describe('rewards posted by the bug-bounty product', () => {
  it('records a reward once per reward id, refuses another body with the same id, never 500s', async () => {
    const person = await researcher();
    const body = rewardBody(person.email);
    const first = await postReward(body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ reward_id: body.reward_id, researcher_id: person.id, status: 'approved', amount_minor: '15000', currency: 'USD', paid_at: null });
    const again = await postReward(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    // In parallel, the same new reward: one row.
    const parallel = rewardBody(person.id, { currency: 'WHC', amount_minor: '250000000' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => postReward(parallel)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const conflict = await postReward({ ...body, amount_minor: '15001' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('payouts.reward_conflict');
    const [{ n }] = (await rows<{ n: number }>(bountyServer.server.database.db, sql`select count(*)::int as n from wallet_rewards where user_id = ${person.id}`)) as [{ n: number }];
    expect(n).toBe(2);
  });

  it('validates every field', async () => {
    const person = await researcher();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ amount_minor: '0' }, 'validation_error'],
      [{ amount_minor: '-5' }, 'validation_error'],
      [{ amount_minor: '1.5' }, 'validation_error'],
      [{ amount_minor: '9'.repeat(16) }, 'validation_error'],
      [{ currency: 'EUR' }, 'validation_error'],
      [{ status: 'paid' }, 'validation_error'],
      [{ program_alias: 'bad alias!' }, 'validation_error'],
      [{ reward_id: '' }, 'validation_error'],
      [{ reward_id: 'x'.repeat(129) }, 'validation_error'],
      [{ researcher: '' }, 'validation_error'],
      [{ researcher: 'nobody-here@example.com' }, 'payouts.researcher_not_found'],
      [{ researcher: '00000000-0000-4000-8000-000000000000' }, 'payouts.researcher_not_found'],
      [{ researcher: person.username }, 'payouts.researcher_not_found'],
    ];
    for (const [change, code] of bad) {
      const response = await postReward(rewardBody(person.email, change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().code, JSON.stringify(change)).toBe(code);
    }
    expect((await inject('POST', '/v3/bugbounty_platform/rewards', bountyServer.bugbounty)).statusCode).toBe(400);
  });

  it("refuses no token, a person's session or access token, a made-up token and another product's client", async () => {
    const person = await researcher();
    const body = rewardBody(person.email);
    expect((await postReward(body, '')).statusCode).toBe(401);
    expect((await postReward(body, person.token)).statusCode).toBe(401);
    // The person's own OIDC access token, even one issued to the bug-bounty client, is not the product's client-credentials token.
    const personToken = await personAccessToken(person.token);
    expect((await bountyServer.server.app.inject({ method: 'GET', url: '/oidc/userinfo', headers: { authorization: `Bearer ${personToken}` } })).statusCode).toBe(200);
    expect((await postReward(body, personToken)).statusCode).toBe(401);
    expect((await postReward(body, 'not-a-token')).statusCode).toBe(401);
    expect((await postReward(body, 'x'.repeat(600))).statusCode).toBe(401);
    const other = await clientCredentialsToken(bountyServer.server, 'test-pwdmanager', OTHER_SECRET);
    const refused = await postReward(body, other);
    expect(refused.statusCode).toBe(403);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${body.reward_id}`, other)).statusCode).toBe(403);
    expect((await inject('POST', `/v3/bugbounty_platform/rewards/${body.reward_id}/cancel`, person.token)).statusCode).toBe(401);
    // Nothing was recorded by the refused calls.
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${body.reward_id}`, bountyServer.bugbounty)).statusCode).toBe(404);
  });

  it('cancels a reward not paid yet, once; a paid one is refused', async () => {
    const person = await researcher();
    const body = rewardBody(person.email);
    await postReward(body);
    const canceled = await inject('POST', `/v3/bugbounty_platform/rewards/${body.reward_id}/cancel`, bountyServer.bugbounty);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().status).toBe('canceled');
    expect((await inject('POST', `/v3/bugbounty_platform/rewards/${body.reward_id}/cancel`, bountyServer.bugbounty)).json().status).toBe('canceled');
    expect((await inject('POST', '/v3/bugbounty_platform/rewards/unknown-id/cancel', bountyServer.bugbounty)).statusCode).toBe(404);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${body.reward_id}`, bountyServer.bugbounty)).json().status).toBe('canceled');
  });
});

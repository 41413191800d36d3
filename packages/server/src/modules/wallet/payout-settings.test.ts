import { describe, expect, it } from 'vitest';
import { PASSWORD, payoutTestServer } from '../../../test/payouts';

/**
 * A researcher's payout settings: the payout wallet (behind a recent proof of identity) and the
 * public profile.
 */
const bountyServer = payoutTestServer();
const { clock, researcher, inject, rewardBody, postReward, choose } = bountyServer;

describe('payout settings and the public profile', () => {
  it('choosing the payout wallet needs a recent proof of identity', async () => {
    const person = await researcher();
    const start = clock.now();
    expect((await inject('GET', '/v3/sso/me/wallet/payout', person.token)).json()).toMatchObject({ payout_currency: null, profile_public: false, username: person.username });
    clock.advance(10 * 60 * 1000);
    try {
      const stale = await choose(person.token, 'VND');
      expect(stale.statusCode).toBe(403);
      expect(stale.json().code).toBe('auth.reauth_required');
      expect((await inject('POST', '/v3/sso/me/reauth', person.token, { password: PASSWORD })).statusCode).toBe(204);
      const chosen = await choose(person.token, 'VND');
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json().payout_currency).toBe('VND');
      expect((await choose(person.token, 'EUR')).statusCode).toBe(400);
    } finally {
      clock.set(start);
    }
  });

  it('shows the public profile only when turned on, with the accepted programs count and nothing private', async () => {
    const person = await researcher();
    expect((await inject('GET', `/v3/researchers/${person.username}`)).statusCode).toBe(404);
    await postReward(rewardBody(person.email, { program_alias: 'alpha' }));
    await postReward(rewardBody(person.email, { program_alias: 'alpha' }));
    await postReward(rewardBody(person.email, { program_alias: 'beta' }));
    const canceled = rewardBody(person.email, { program_alias: 'gamma' });
    await postReward(canceled);
    await inject('POST', `/v3/bugbounty_platform/rewards/${canceled.reward_id}/cancel`, bountyServer.bugbounty);
    expect((await inject('PUT', '/v3/sso/me/wallet/payout/profile', person.token, { profile_public: true })).json().profile_public).toBe(true);
    const profile = await inject('GET', `/v3/researchers/${person.username.toUpperCase()}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({ username: person.username, display_name: expect.stringMatching(/^Hunter \d+$/), accepted_programs: 2 });
    expect(profile.body).not.toContain(person.email);
    expect((await inject('GET', '/v3/researchers/nobody0here')).statusCode).toBe(404);
    expect((await inject('GET', `/v3/researchers/${encodeURIComponent(person.email)}`)).statusCode).toBe(404);
    // Lookups are counted per address in one atomic step: 70 at once from one address, 60 answered.
    const burst = await Promise.all(Array.from({ length: 70 }, () => bountyServer.server.app.inject({ method: 'GET', url: `/v3/researchers/${person.username}`, remoteAddress: '127.7.7.7' })));
    expect(burst.filter((answer) => answer.statusCode === 200)).toHaveLength(60);
    expect(burst.filter((answer) => answer.statusCode === 429)).toHaveLength(10);
    expect(burst.find((answer) => answer.statusCode === 429)!.json().code).toBe('rate_limited');
    await inject('PUT', '/v3/sso/me/wallet/payout/profile', person.token, { profile_public: false });
    expect((await inject('GET', `/v3/researchers/${person.username}`)).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { startOidcIdp, type IdpPerson } from '../../../test/fake-idps';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { applyLimitOverrides, limits } from '../../platform/rate-limit/rules';

/**
 * A social sign-up with an email the provider did not prove mails a 6-digit code to that
 * address; proving it creates an active account for the address with the attacker's social
 * identity linked. An attacker may open many sign-ups (from their own provider account, from
 * many addresses) naming the same victim email: the wrong guesses at that mailbox's codes share
 * one budget across codes and sign-ups (`codeFailuresPerAccount`, as every mailed code), and
 * the codes mailed to it are capped per address (`codeSendPerAccount`), not per sign-up.
 */
const CLIENT = { clientId: 'portal-test', clientSecret: 'portal-test-secret-0123456789abcdef' };
const CALLBACK = 'http://localhost:8080/callback';

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let oidcIdp: Awaited<ReturnType<typeof startOidcIdp>>;
let visitors = 0;

// The attacker waits out the 30 seconds between codes to one address; here they are waived.
const gap = { ...limits.codeSendInterval };
beforeAll(async () => {
  applyLimitOverrides({ 'code:gap': { limit: 1000, windowSeconds: 30 } });
  oidcIdp = await startOidcIdp({ ...CLIENT, redirectUris: [CALLBACK] });
  const env: Record<string, string> = {};
  for (const prefix of ['SOCIAL_GOOGLE_', 'SOCIAL_VINCSS_', 'SOCIAL_MICROSOFT_']) Object.assign(env, { [`${prefix}CLIENT_ID`]: CLIENT.clientId, [`${prefix}CLIENT_SECRET`]: CLIENT.clientSecret, [`${prefix}ISSUER`]: oidcIdp.issuer });
  server = await startTestServer({ env });
  client = identityClient(server.app, server.database);
});

afterAll(async () => {
  applyLimitOverrides({ 'code:gap': gap });
  await server?.close();
  await oidcIdp?.close();
});

/** Every request from another address: the attacker spreads over many, so no per-IP limit is what holds. */
const nextAddress = () => `127.31.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;
const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress() });

/** The attacker's own provider account (an unproven email) answers a fresh sign-up offer. */
async function signUpOffer(person: IdpPerson): Promise<string> {
  oidcIdp.signInAs(person);
  const started = await server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/vincss/start', payload: { intent: 'sign_in' }, remoteAddress: nextAddress() });
  expect(started.statusCode, started.body).toBe(200);
  const cookie = started.cookies.find((item) => item.name === 'portal_social')!.value;
  const url = new URL(started.json().url as string);
  const walked = await new TestBrowser(url.origin).walk(url.href);
  const params = walked.url.searchParams;
  const answer = await server.app.inject({
    method: 'POST',
    url: '/v3/_auth/oauth/vincss/authorize',
    payload: { code: params.get('code'), state: params.get('state'), ...(params.get('iss') ? { iss: params.get('iss') } : {}) },
    remoteAddress: nextAddress(),
    headers: { cookie: `portal_social=${cookie}` },
  });
  expect(answer.json(), answer.body).toMatchObject({ signup_required: true });
  return answer.json().signup_token as string;
}

describe('social sign-up code for an email the attacker does not own', () => {
  it('wrong guesses at the codes mailed to one address share one budget across sign-ups and codes', async () => {
    const victim = `victim-${Date.now()}@example.com`;
    const attacker: IdpPerson = { sub: `mallory-${Date.now()}`, email: `mallory-${Date.now()}@example.net`, email_verified: false, name: 'Mallory' };
    const seen: string[] = [];
    const guesses: Array<{ token: string; wrong: string }> = [];
    // Three sign-ups naming the victim's address: each mails a code with five guesses of its own.
    for (let round = 0; round < 3; round += 1) {
      const token = await signUpOffer(attacker);
      const asked = await post('/v3/_auth/oauth/signup', { signup_token: token, full_name: 'Victim', email: victim, accept_terms: true });
      expect(asked.json(), asked.body).toEqual({ verification_required: true, email: victim });
      const [, mailed] = await client.mailTo(victim, /\b(\d{6})\b/, seen);
      seen.push(mailed!);
      for (let guess = 0; guess < 5; guess += 1) guesses.push({ token, wrong: mailed === '000000' ? '111111' : '000000' });
    }
    // All fifteen at once: the budget is taken in one step per guess, before the code is compared.
    const answers = await Promise.all(guesses.map(async ({ token, wrong }) => (await post('/v3/_auth/oauth/signup/verify', { signup_token: token, code: wrong })).json().code as string));
    // 15 wrong guesses at codes of one mailbox: past the per-account budget of mailed codes,
    // the rest must be refused before they are checked, whatever sign-up carries them.
    const budget = limits.codeFailuresPerAccount.limit;
    expect(answers.filter((code) => code === 'auth.code_invalid')).toHaveLength(budget);
    expect(answers.filter((code) => code === 'rate_limited')).toHaveLength(answers.length - budget);
  });

  it('codes mailed to one address are capped per address, not per sign-up token', async () => {
    const victim = `flooded-${Date.now()}@example.com`;
    const attacker: IdpPerson = { sub: `flood-${Date.now()}`, email: `flood-${Date.now()}@example.net`, email_verified: false, name: 'Mallory' };
    const statuses: number[] = [];
    for (let round = 0; round < limits.codeSendPerAccount.limit + 2; round += 1) {
      const token = await signUpOffer(attacker);
      const asked = await post('/v3/_auth/oauth/signup', { signup_token: token, full_name: 'Victim', email: victim, accept_terms: true });
      statuses.push(asked.statusCode);
    }
    // At most codeSendPerAccount codes to one mailbox per window, as every other mailed code.
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(limits.codeSendPerAccount.limit);
  });
});

import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { startOAuth2Idp, startOidcIdp, type IdpPerson } from '../../../test/fake-idps';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { applyLimitOverrides, limits } from '../../platform/rate-limit/rules';

/**
 * Social sign-in against real providers the test starts: a second oidc-provider for the
 * OpenID Connect ones (Google, VinCSS, Microsoft) and small servers speaking GitHub's and
 * Facebook's OAuth 2.0. The account-takeover rules are the point.
 */
const CLIENT = { clientId: 'portal-test', clientSecret: 'portal-test-secret-0123456789abcdef' };
const CALLBACK = 'http://localhost:8080/callback';

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let oidcIdp: Awaited<ReturnType<typeof startOidcIdp>>;
let github: Awaited<ReturnType<typeof startOAuth2Idp>>;
let facebook: Awaited<ReturnType<typeof startOAuth2Idp>>;
let visitors = 0;
let people = 0;

beforeAll(async () => {
  oidcIdp = await startOidcIdp({ ...CLIENT, redirectUris: [CALLBACK] });
  github = await startOAuth2Idp('github', CLIENT);
  facebook = await startOAuth2Idp('facebook', CLIENT);
  const env: Record<string, string> = {};
  for (const prefix of ['SOCIAL_GOOGLE_', 'SOCIAL_VINCSS_', 'SOCIAL_MICROSOFT_']) Object.assign(env, { [`${prefix}CLIENT_ID`]: CLIENT.clientId, [`${prefix}CLIENT_SECRET`]: CLIENT.clientSecret, [`${prefix}ISSUER`]: oidcIdp.issuer });
  for (const [prefix, idp] of [['SOCIAL_GITHUB_', github], ['SOCIAL_FACEBOOK_', facebook]] as const) {
    Object.assign(env, { [`${prefix}CLIENT_ID`]: CLIENT.clientId, [`${prefix}CLIENT_SECRET`]: CLIENT.clientSecret });
    for (const [name, value] of Object.entries(idp.settings)) env[`${prefix}${name}`] = value;
  }
  server = await startTestServer({ env });
  client = identityClient(server.app, server.database);
});

afterAll(async () => {
  await server?.close();
  await Promise.all([oidcIdp?.close(), github?.close(), facebook?.close()]);
});

const nextAddress = () => `127.9.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;
const uniqueEmail = (label: string) => `${label}-${++people}-${Date.now()}@example.com`;

interface Started {
  cookie: string;
  callback: URL;
}

/** POST start, then the provider's pages as a browser would walk them, up to our /callback. */
async function start(provider: string, person: IdpPerson | Parameters<typeof github.signInAs>[0], options: { token?: string; intent?: 'sign_in' | 'link' } = {}): Promise<Started> {
  if (provider === 'github') github.signInAs(person as Parameters<typeof github.signInAs>[0]);
  else if (provider === 'facebook') facebook.signInAs(person as Parameters<typeof facebook.signInAs>[0]);
  else oidcIdp.signInAs(person as IdpPerson);
  const started = await server.app.inject({
    method: 'POST',
    url: `/v3/_auth/oauth/${provider}/start`,
    payload: { intent: options.intent ?? 'sign_in' },
    remoteAddress: nextAddress(),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  expect(started.statusCode, started.body).toBe(200);
  const cookie = started.cookies.find((item) => item.name === 'portal_social');
  expect(cookie?.httpOnly).toBe(true);
  const url = new URL(started.json().url as string);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('state')).toMatch(new RegExp(`^${provider}\\.`));
  const walked = await new TestBrowser(url.origin).walk(url.href);
  expect(walked.url.origin + walked.url.pathname).toBe(CALLBACK);
  return { cookie: cookie!.value, callback: walked.url };
}

async function finish(provider: string, started: Started, options: { token?: string; cookie?: string | null; state?: string } = {}) {
  const params = started.callback.searchParams;
  const cookie = options.cookie === null ? undefined : (options.cookie ?? started.cookie);
  return server.app.inject({
    method: 'POST',
    url: `/v3/_auth/oauth/${provider}/authorize`,
    payload: { code: params.get('code'), state: options.state ?? params.get('state'), ...(params.get('iss') ? { iss: params.get('iss') } : {}) },
    remoteAddress: nextAddress(),
    headers: { ...(cookie ? { cookie: `portal_social=${cookie}` } : {}), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
  });
}

const signInWith = async (provider: string, person: Parameters<typeof start>[1]) => finish(provider, await start(provider, person));

const post = (url: string, payload: object, token?: string) =>
  server.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress(), headers: token ? { authorization: `Bearer ${token}` } : {} });
const me = (token: string) => server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });

describe('social sign-up', () => {
  it('a provider-verified email signs up at /create-user at once, and the identity signs in afterwards', async () => {
    const email = uniqueEmail('google');
    const person = { sub: `g-${people}`, email, email_verified: true, name: 'Grace Hopper' };
    const offer = await signInWith('google', person);
    expect(offer.statusCode, offer.body).toBe(200);
    expect(offer.json()).toMatchObject({ signup_required: true, provider: 'google', email, email_verified: true, full_name: 'Grace Hopper' });

    const noTerms = await post('/v3/_auth/oauth/signup', { signup_token: offer.json().signup_token, full_name: 'Grace', email, accept_terms: false });
    expect(noTerms.statusCode).toBe(400);
    const created = await post('/v3/_auth/oauth/signup', { signup_token: offer.json().signup_token, full_name: 'Grace B. Hopper', email, accept_terms: true });
    expect(created.statusCode, created.body).toBe(200);
    expect((await me(created.json().token)).json()).toMatchObject({ email, full_name: 'Grace B. Hopper' });
    // The offer is used up.
    expect((await post('/v3/_auth/oauth/signup', { signup_token: offer.json().signup_token, full_name: 'X', email, accept_terms: true })).json().code).toBe('social.signup_expired');

    const again = await signInWith('google', person);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().token).toEqual(expect.any(String));
    expect(again.cookies.some((cookie) => cookie.name === 'auth_token')).toBe(true);
  });

  it('an email the provider did not prove gets a code first; no account exists until it is proven; five guesses per code', async () => {
    const providerEmail = uniqueEmail('vincss');
    const offer = await signInWith('vincss', { sub: `v-${people}`, email: providerEmail, email_verified: false, name: 'Vy' });
    expect(offer.json()).toMatchObject({ signup_required: true, email_verified: false });
    const chosen = uniqueEmail('chosen');
    const token = offer.json().signup_token as string;
    const asked = await post('/v3/_auth/oauth/signup', { signup_token: token, full_name: 'Vy Nguyen', email: chosen, accept_terms: true });
    expect(asked.json()).toEqual({ verification_required: true, email: chosen });
    const [, code] = await client.mailTo(chosen, /\b(\d{6})\b/);
    // Not an account yet: a password sign-up for the address is still possible, and sign-in knows nobody.
    expect((await client.signIn(chosen, 'whatever-password-1')).json().code).toBe('auth.invalid_credentials');

    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(Array.from({ length: 8 }, () => post('/v3/_auth/oauth/signup/verify', { signup_token: token, code: wrong })));
    expect(guesses.every((guess) => guess.json().code === 'auth.code_invalid')).toBe(true);
    // Five guesses were all the code had: the right one is refused now.
    expect((await post('/v3/_auth/oauth/signup/verify', { signup_token: token, code })).json().code).toBe('auth.code_invalid');

    // Asking again at once is refused, as for every mailed code (one in 30 seconds per address)...
    const soon = await post('/v3/_auth/oauth/signup', { signup_token: token, full_name: 'Vy Nguyen', email: chosen, accept_terms: true });
    expect([soon.statusCode, soon.json().code]).toEqual([429, 'rate_limited']);
    // ...and later mails a new code with its own five guesses (the 30 seconds waived here).
    const gap = { ...limits.codeSendInterval };
    applyLimitOverrides({ 'code:gap': { limit: 1000, windowSeconds: 30 } });
    try {
      expect((await post('/v3/_auth/oauth/signup', { signup_token: token, full_name: 'Vy Nguyen', email: chosen, accept_terms: true })).statusCode).toBe(200);
    } finally {
      applyLimitOverrides({ 'code:gap': gap });
    }
    const [, second] = await client.mailTo(chosen, /\b(\d{6})\b/, [code!]);
    const verified = await post('/v3/_auth/oauth/signup/verify', { signup_token: token, code: second });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await me(verified.json().token)).json()).toMatchObject({ email: chosen, full_name: 'Vy Nguyen' });
  });

  it('GitHub: the verified primary address counts; Facebook: its address is never taken as proven', async () => {
    const email = uniqueEmail('octo');
    const offer = await signInWith('github', { id: String(1000 + people), login: 'octo', name: '', email, verified: true });
    expect(offer.json()).toMatchObject({ signup_required: true, provider: 'github', email, email_verified: true, full_name: 'octo' });
    const fb = await signInWith('facebook', { id: `fb${people}`, name: 'Fay', email: uniqueEmail('fb') });
    expect(fb.json()).toMatchObject({ signup_required: true, provider: 'facebook', email_verified: false });
  });
});

describe('linking and account takeover', () => {
  it('links to an existing account by itself only when both sides proved the email', async () => {
    const email = uniqueEmail('owner');
    const token = await client.registeredUser(email);
    // The provider does not vouch for the address: sign in first, then link.
    const unverified = await signInWith('google', { sub: `u-${people}`, email, email_verified: false, name: 'Mallory' });
    expect(unverified.json()).toMatchObject({ code: 'social.account_exists' });
    // Microsoft's email claim is not proof unless it says so (xms_edov).
    const microsoft = await signInWith('microsoft', { sub: `m-${people}`, email, email_verified: true, name: 'M' });
    expect(microsoft.json().code).toBe('social.account_exists');
    const facebookSame = await signInWith('facebook', { id: `fb-same-${people}`, name: 'F', email });
    expect(facebookSame.json().code).toBe('social.account_exists');

    const verified = await signInWith('google', { sub: `ok-${people}`, email, email_verified: true, name: 'Owner' });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().token).toEqual(expect.any(String));
    const linked = await server.app.inject({ method: 'GET', url: '/v3/sso/me/social', headers: { authorization: `Bearer ${token}` } });
    expect(linked.json().identities).toEqual([expect.objectContaining({ provider: 'google', email })]);
    // A second provider proving the same address is the same person too.
    const second = await signInWith('github', { id: String(5000 + people), name: 'Owner', email, verified: true });
    expect(second.json().token).toEqual(expect.any(String));
  });

  it('never links to an account whose owner has not proven the address (a pre-registered stranger)', async () => {
    const email = uniqueEmail('squat');
    await client.signUp(email); // never activated
    const attempt = await signInWith('google', { sub: `sq-${people}`, email, email_verified: true, name: 'Victim' });
    expect(attempt.json().code).toBe('social.account_exists');
  });

  it('links from the security page, and unlinks unless it is the last way in', async () => {
    const email = uniqueEmail('linker');
    const token = await client.registeredUser(email);
    const started = await start('github', { id: String(9000 + people), name: 'L', email: 'someone-else@example.org', verified: true }, { token, intent: 'link' });
    // Finishing in another account (or signed out) is refused.
    expect((await finish('github', started)).json().code).toBe('social.state_invalid');
    const again = await start('github', { id: String(9000 + people), name: 'L', email: 'someone-else@example.org', verified: true }, { token, intent: 'link' });
    const linked = await finish('github', again, { token });
    expect(linked.json()).toEqual({ linked: true, provider: 'github' });
    const list = await server.app.inject({ method: 'GET', url: '/v3/sso/me/social', headers: { authorization: `Bearer ${token}` } });
    expect(list.json().identities.map((row: { provider: string }) => row.provider)).toEqual(['github']);
    expect(list.json().available).not.toContain('github');

    const unlinked = await server.app.inject({ method: 'DELETE', url: '/v3/sso/me/social/github', headers: { authorization: `Bearer ${token}` } });
    expect(unlinked.statusCode, unlinked.body).toBe(204);
    expect((await server.app.inject({ method: 'DELETE', url: '/v3/sso/me/social/github', headers: { authorization: `Bearer ${token}` } })).json().code).toBe('social.not_linked');
  });

  it('the only way into a social account cannot be unlinked, even by two requests at once', async () => {
    const email = uniqueEmail('only');
    const offer = await signInWith('google', { sub: `only-${people}`, email, email_verified: true, name: 'Only' });
    const created = await post('/v3/_auth/oauth/signup', { signup_token: offer.json().signup_token, full_name: 'Only', email, accept_terms: true });
    const token = created.json().token as string;
    const refused = await server.app.inject({ method: 'DELETE', url: '/v3/sso/me/social/google', headers: { authorization: `Bearer ${token}` } });
    expect(refused.json().code).toBe('social.last_method');

    // With GitHub linked too, two unlinks at once leave one of them.
    const started = await start('github', { id: String(7000 + people), name: 'O', verified: false }, { token, intent: 'link' });
    expect((await finish('github', started, { token })).json()).toEqual({ linked: true, provider: 'github' });
    const both = await Promise.all(['google', 'github'].map((provider) => server.app.inject({ method: 'DELETE', url: `/v3/sso/me/social/${provider}`, headers: { authorization: `Bearer ${token}` } })));
    expect(both.map((response) => response.statusCode).sort()).toEqual([204, 400]);
    const left = await server.app.inject({ method: 'GET', url: '/v3/sso/me/social', headers: { authorization: `Bearer ${token}` } });
    expect(left.json().identities).toHaveLength(1);
  });
});

describe('the pipeline and the protocol', () => {
  it('an account with two-step on gets the second step after the provider, then a session', async () => {
    const email = uniqueEmail('twostep');
    const token = await client.registeredUser(email);
    const setup = await post('/v3/sso/me/2fa/totp/setup', {}, token);
    const { secret } = setup.json();
    expect((await post('/v3/sso/me/2fa/totp/enable', { code: await generate({ secret }) }, token)).statusCode).toBe(200);
    const first = await signInWith('google', { sub: `2fa-${people}`, email, email_verified: true, name: 'T' });
    expect(first.json()).toMatchObject({ mfa_required: true });
    expect(first.cookies.some((cookie) => cookie.name === 'auth_token')).toBe(false);
  });

  it('refuses a wrong state, a missing cookie, a used code (1002) and a provider that is not configured', async () => {
    const person = { sub: `p-${people}`, email: uniqueEmail('proto'), email_verified: true, name: 'P' };
    const started = await start('google', person);
    expect((await finish('google', started, { state: 'google.forged' })).json().code).toBe('social.state_invalid');
    expect((await finish('google', started, { cookie: null })).json().code).toBe('social.state_invalid');
    expect((await finish('google', started, { cookie: 'v1:not:sealed' })).json().code).toBe('social.state_invalid');
    const ok = await finish('google', started);
    expect(ok.statusCode, ok.body).toBe(200);
    // The same code again (with the cookie kept aside): the provider refuses it.
    const replay = await finish('google', started);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: '1002', message: 'The authorization code is not valid' });
    // A cookie started for another provider does not fit.
    expect((await finish('vincss', started)).json().code).toBe('social.state_invalid');

    const apple = await server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/apple/start', payload: {}, remoteAddress: nextAddress() });
    expect(apple.json().code).toBe('social.provider_unavailable');
    // githubLocker is the password-manager brand's app: not offered on the platform brand.
    const locker = await server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/githubLocker/start', payload: {}, remoteAddress: nextAddress() });
    expect(locker.json().code).toBe('social.provider_unavailable');
    const unknown = await server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/myspace/start', payload: {}, remoteAddress: nextAddress() });
    expect(unknown.statusCode).toBe(400);
  });

  it('counts starts per address in one atomic step: all at once, exactly the allowance gets through', async () => {
    const address = nextAddress();
    const answers = await Promise.all(
      Array.from({ length: limits.signInPerIp.limit + 5 }, () => server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/github/start', payload: {}, remoteAddress: address })),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(limits.signInPerIp.limit);
    expect(answers.filter((answer) => answer.statusCode === 429).map((answer) => answer.json().code)).toEqual(Array(5).fill('rate_limited'));
    // Another address is not held back.
    expect((await server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/github/start', payload: {}, remoteAddress: nextAddress() })).statusCode).toBe(200);
  });

  it('linking needs a recent proof of identity and a session', async () => {
    const signedOut = await server.app.inject({ method: 'POST', url: '/v3/_auth/oauth/github/start', payload: { intent: 'link' }, remoteAddress: nextAddress() });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe("Apple's form_post answer", () => {
  it('POST /callback becomes the GET the page reads, with only its known values', async () => {
    const posted = await server.app.inject({
      method: 'POST',
      url: '/callback',
      // Posted by Apple's page: another site, as the cross-site guard sees it.
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://appleid.apple.com' },
      payload: 'code=c0de&state=apple.xyz&user=%7B%22name%22%3A1%7D&iss=https%3A%2F%2Fappleid.apple.com',
    });
    expect(posted.statusCode).toBe(303);
    const location = new URL(posted.headers.location as string, 'http://x');
    expect(location.pathname).toBe('/callback');
    expect(Object.fromEntries(location.searchParams)).toEqual({ code: 'c0de', state: 'apple.xyz', iss: 'https://appleid.apple.com' });
    const junk = await server.app.inject({ method: 'POST', url: '/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `code=${'x'.repeat(5000)}` });
    expect(junk.statusCode).toBe(303);
    expect(junk.headers.location).toBe('/callback?');
  });
});

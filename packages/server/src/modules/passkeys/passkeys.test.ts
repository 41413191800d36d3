import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { solveCaptcha } from '../../../test/captcha';
import { visitorAddresses, visitorCalls } from '../../../test/visitor-calls';

const clock = manualClock();
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let origin: string;
const PASSWORD = 'plum-orbit-cactus-917';

beforeAll(async () => {
  server = await startTestServer({ clock });
  client = identityClient(server.app, server.database);
  origin = server.config.PLATFORM_ORIGIN;
});
afterAll(() => server.close());

const nextAddress = visitorAddresses('10.8');
const call = visitorCalls(() => server, nextAddress, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36');

type Json = Record<string, unknown>;
const authOptions = async (body: Json = {}, host?: string) => (await call('POST', '/v3/sso/users/webauthn/auth/options', { body, host })).json() as Json;
const authenticate = (response: Json, host?: string, username?: string) => call('POST', '/v3/sso/users/webauthn/auth', { body: { response, ...(username ? { username } : {}) }, host });

/** Signs up with a passkey on a fresh authenticator; returns it with the answer. */
async function passkeySignUp(email: string, authenticator = new SoftAuthenticator(origin)) {
  const options = await call('POST', '/v3/sso/users/webauthn/register/options', { body: { algorithms: ['es256', 'rs256'], email, full_name: 'Key Holder', captcha: await solveCaptcha(server.app) } });
  expect(options.statusCode).toBe(200);
  // Through the client, which keeps the registration cookie: its activation links keep the passkey.
  const response = await client.post('/v3/sso/users/webauthn/register', { response: authenticator.register(options.json()) }, {}, nextAddress());
  return { authenticator, response, options: options.json() as Json };
}

/** A password account with a passkey added from the account pages. */
async function userWithPasskey(email: string) {
  const token = await client.registeredUser(email, PASSWORD);
  const authenticator = new SoftAuthenticator(origin);
  const options = (await call('POST', '/v3/sso/users/me/webauthn/enable/options', { token, body: { algorithms: ['es256'] } })).json();
  const added = await call('POST', '/v3/sso/users/me/webauthn/enable', { token, body: { response: authenticator.register(options) } });
  expect(added.statusCode).toBe(200);
  return { token, authenticator, passkey: added.json() as Json };
}

describe('passkey sign-up', () => {
  it('asks for a discoverable, user-verified ES256 or RS256 credential on the brand origin', async () => {
    const options = (await call('POST', '/v3/sso/users/webauthn/register/options', { body: { email: 'opts@example.com', full_name: 'Opts', captcha: await solveCaptcha(server.app) } })).json();
    expect(options.rp).toEqual({ name: 'CyStack ID', id: 'localhost' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect((options.pubKeyCredParams as Array<{ alg: number }>).map((param) => param.alg)).toEqual([-7, -257]);
    expect(options.user).toMatchObject({ name: 'opts@example.com', displayName: 'Opts' });
    expect(options.excludeCredentials).toEqual([]);
    const locker = (await call('POST', '/v3/sso/users/webauthn/register/options', { host: 'locker.localhost', body: { algorithms: ['es256'], email: 'opts@example.com', full_name: 'Opts', captcha: await solveCaptcha(server.app) } })).json();
    expect(locker.rp).toEqual({ name: 'Locker ID', id: 'locker.localhost' });
    expect((locker.pubKeyCredParams as Array<{ alg: number }>).map((param) => param.alg)).toEqual([-7]);
  });

  it('creates an inactive account without a password, activated by mail, then signs in with the passkey', async () => {
    const email = 'passkey-new@example.com';
    const { authenticator, response } = await passkeySignUp(email);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ email });

    const early = await authenticate(authenticator.assert(await authOptions()));
    expect(early.json().code).toBe('auth.not_activated');
    expect((await client.activate(email)).statusCode).toBe(200);

    const options = await authOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('localhost');
    const signedIn = await authenticate(authenticator.assert(options));
    expect(signedIn.statusCode).toBe(200);
    const { token } = signedIn.json();
    expect(signedIn.cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe(token);
    const me = (await call('GET', '/v3/sso/me', { token })).json();
    expect(me).toMatchObject({ email, full_name: 'Key Holder', has_password: false, is_activated: true });

    // A passkey-only account sets its first password without a current one.
    const set = await call('PUT', '/v3/sso/me/password', { token, body: { new_password: 'first-real-password-8', confirm_password: 'first-real-password-8' } });
    expect(set.statusCode).toBe(204);
    expect((await client.signIn(email, 'first-real-password-8')).statusCode).toBe(200);
  });

  it('answers a taken email the same, mails the owner and stores no passkey', async () => {
    await client.registeredUser('taken-passkey@example.com', PASSWORD);
    const taken = await passkeySignUp('taken-passkey@example.com');
    const fresh = await passkeySignUp('fresh-passkey@example.com');
    expect(taken.response.statusCode).toBe(fresh.response.statusCode);
    expect(taken.response.json()).toEqual({ email: 'taken-passkey@example.com' });
    await client.mailTo('taken-passkey@example.com', /already has an account/i);
    const attempt = await authenticate(taken.authenticator.assert(await authOptions()));
    expect(attempt.json().code).toBe('auth.passkey_failed');
  });

  it('refuses an attestation for another origin, a replayed challenge, or one never issued', async () => {
    const options = (await call('POST', '/v3/sso/users/webauthn/register/options', { body: { email: 'bad-origin@example.com', full_name: 'Bad', captcha: await solveCaptcha(server.app) } })).json();
    const authenticator = new SoftAuthenticator(origin);
    const wrongOrigin = await call('POST', '/v3/sso/users/webauthn/register', { body: { response: authenticator.register(options, { origin: 'https://evil.example' }) } });
    expect(wrongOrigin.json()).toEqual({ code: 'auth.passkey_signup_failed', message: 'Failed to log in/sign up with passkeys' });
    // The challenge was spent by the failed attempt.
    const replay = await call('POST', '/v3/sso/users/webauthn/register', { body: { response: authenticator.register(options) } });
    expect(replay.json().code).toBe('auth.passkey_signup_failed');
    const invented = await call('POST', '/v3/sso/users/webauthn/register', { body: { response: authenticator.register(options, { challenge: 'bm90LWlzc3VlZC1ieS11cw' }) } });
    expect(invented.json().code).toBe('auth.passkey_signup_failed');
    const garbage = await call('POST', '/v3/sso/users/webauthn/register', { body: { response: { id: 'x', response: { clientDataJSON: 'not json' } } } });
    expect(garbage.json().code).toBe('auth.passkey_signup_failed');
  });
});

describe('passkey sign-in', () => {
  it('never reveals whether a username exists', async () => {
    await client.registeredUser('known-name@example.com', PASSWORD);
    const known = await authOptions({ username: 'known-name@example.com' });
    const unknown = await authOptions({ username: 'unknown-name@example.com' });
    expect(Object.keys(known).sort()).toEqual(Object.keys(unknown).sort());
    expect(known.allowCredentials).toEqual([]);
    expect(unknown.allowCredentials).toEqual([]);
  });

  it('refuses a wrong challenge, a wrong origin, another brand, a reused challenge and an unverified user', async () => {
    const { authenticator } = await userWithPasskey('failures@example.com');
    const invented = await authenticate(authenticator.assert(await authOptions(), { challenge: 'aW52ZW50ZWQtY2hhbGxlbmdl' }));
    expect(invented.json()).toEqual({ code: 'auth.passkey_failed', message: 'Passkeys authentication failed' });
    const wrongOrigin = await authenticate(authenticator.assert(await authOptions(), { origin: 'http://localhost:9999' }));
    expect(wrongOrigin.json().code).toBe('auth.passkey_failed');
    const otherBrand = await authenticate(authenticator.assert(await authOptions({}, 'locker.localhost')), 'locker.localhost');
    expect(otherBrand.json().code).toBe('auth.passkey_failed');
    const unverified = await authenticate(authenticator.assert(await authOptions(), { userNotVerified: true }));
    expect(unverified.json().code).toBe('auth.passkey_failed');
    const wrongUser = await authenticate(authenticator.assert(await authOptions()), undefined, 'someone-else@example.com');
    expect(wrongUser.json().code).toBe('auth.passkey_failed');

    const options = await authOptions();
    expect((await authenticate(authenticator.assert(options), undefined, 'failures@example.com')).statusCode).toBe(200);
    const reused = await authenticate(authenticator.assert(options));
    expect(reused.json().code).toBe('auth.passkey_failed');
    // A sign-up challenge is not a sign-in challenge.
    const registerOptions = (await call('POST', '/v3/sso/users/webauthn/register/options', { body: { email: 'x@example.com', full_name: 'X', captcha: await solveCaptcha(server.app) } })).json();
    expect((await authenticate(authenticator.assert(registerOptions))).json().code).toBe('auth.passkey_failed');
  });

  it('refuses a counter that does not increase, and records counter and last use on success', async () => {
    const { token, authenticator, passkey } = await userWithPasskey('counter@example.com');
    expect(passkey.last_used_at).toBeNull();
    expect((await authenticate(authenticator.assert(await authOptions(), { counter: 5 }))).statusCode).toBe(200);
    const listed = (await call('GET', '/v3/sso/users/me/webauthn', { token })).json() as Json[];
    expect(listed[0]!.last_used_at).toBe(clock.now().toISOString());
    const backwards = await authenticate(authenticator.assert(await authOptions(), { counter: 3 }));
    expect(backwards.json().code).toBe('auth.passkey_failed');
    const same = await authenticate(authenticator.assert(await authOptions(), { counter: 5 }));
    expect(same.json().code).toBe('auth.passkey_failed');
    expect((await authenticate(authenticator.assert(await authOptions(), { counter: 6 }))).statusCode).toBe(200);
  });

  it('counts failures per address, not successes: 60 passkey sign-ins from one address all pass', async () => {
    const { authenticator } = await userWithPasskey('passkey-crowd@example.com');
    const fromOffice = (url: string, body: Json) =>
      server.app.inject({ method: 'POST', url, payload: body, remoteAddress: '10.99.0.1', headers: { 'user-agent': 'vitest' } });
    for (let index = 0; index < 60; index += 1) {
      const options = (await fromOffice('/v3/sso/users/webauthn/auth/options', {})).json() as Json;
      const signedIn = await fromOffice('/v3/sso/users/webauthn/auth', { response: authenticator.assert(options) });
      expect(signedIn.statusCode, `sign-in ${index + 1}`).toBe(200);
    }
  });

  it('counts a user-verified passkey as both factors when two-step is on', async () => {
    const { token, authenticator } = await userWithPasskey('passkey-2fa@example.com');
    const { secret } = (await call('POST', '/v3/sso/me/2fa/totp/setup', { token })).json();
    const epoch = Math.floor(clock.now().getTime() / 1000);
    await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await generate({ secret, epoch }) } });
    const signedIn = await authenticate(authenticator.assert(await authOptions()));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ token: expect.any(String) });
  });
});

describe('passkey management', () => {
  it('adds, lists, renames and removes passkeys; a removed passkey no longer signs in', async () => {
    const email = 'manager@example.com';
    const { token, authenticator, passkey } = await userWithPasskey(email);
    expect(passkey).toMatchObject({ name: 'Chrome 126 · Apple Macintosh · macOS 10.15.7', last_used_at: null, backed_up: false, device_type: 'singleDevice' });
    await client.mailTo(email, /A passkey was added to your account/);

    // Options to add another exclude the one already there.
    const options = (await call('POST', '/v3/sso/users/me/webauthn/enable/options', { token, body: { algorithms: ['es256', 'rs256'] } })).json();
    expect(options.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.credentials[0]!.id.toString('base64url') })]);
    // Added a moment later: the list is in the order the passkeys were added (the test's clock stands still otherwise).
    clock.advance(1000);
    const second = await call('POST', '/v3/sso/users/me/webauthn/enable', { token, body: { response: authenticator.register(options), name: 'Work laptop' } });
    expect(second.json().name).toBe('Work laptop');

    const list = (await call('GET', '/v3/sso/users/me/webauthn', { token })).json() as Json[];
    expect(list.map((item) => item.name)).toEqual(['Chrome 126 · Apple Macintosh · macOS 10.15.7', 'Work laptop']);
    expect(list[0]!.created_at).toEqual(expect.any(String));

    const renamed = await call('PUT', `/v3/sso/users/me/webauthn/${passkey.id}`, { token, body: { name: '  Home Mac  ' } });
    expect(renamed.json().name).toBe('Home Mac');
    const blank = await call('PUT', `/v3/sso/users/me/webauthn/${passkey.id}`, { token, body: { name: ' ' } });
    expect(blank.statusCode).toBe(400);

    const firstCredential = authenticator.credentials[0]!.id.toString('base64url');
    expect((await authenticate(authenticator.assert(await authOptions(), { credentialId: firstCredential }))).statusCode).toBe(200);
    expect((await call('DELETE', `/v3/sso/users/me/webauthn/${passkey.id}`, { token })).statusCode).toBe(204);
    await client.mailTo(email, /A passkey was removed from your account/);
    const removed = await authenticate(authenticator.assert(await authOptions(), { credentialId: firstCredential }));
    expect(removed.json().code).toBe('auth.passkey_failed');
    expect(((await call('GET', '/v3/sso/users/me/webauthn', { token })).json() as Json[]).map((item) => item.name)).toEqual(['Work laptop']);
    expect((await call('DELETE', `/v3/sso/users/me/webauthn/${passkey.id}`, { token })).json().code).toBe('auth.passkey_not_found');
  });

  it("cannot touch another user's passkeys, and needs a session", async () => {
    const { passkey } = await userWithPasskey('owner-of-key@example.com');
    const stranger = await client.registeredUser('stranger@example.com', PASSWORD);
    expect((await call('PUT', `/v3/sso/users/me/webauthn/${passkey.id}`, { token: stranger, body: { name: 'Mine now' } })).json().code).toBe('auth.passkey_not_found');
    expect((await call('DELETE', `/v3/sso/users/me/webauthn/${passkey.id}`, { token: stranger })).json().code).toBe('auth.passkey_not_found');
    expect((await call('DELETE', '/v3/sso/users/me/webauthn/not-a-uuid', { token: stranger })).json().code).toBe('auth.passkey_not_found');
    expect((await call('GET', '/v3/sso/users/me/webauthn')).statusCode).toBe(401);
    expect((await call('POST', '/v3/sso/users/me/webauthn/enable/options', { body: {} })).statusCode).toBe(401);
  });

  it("refuses an enable challenge issued to another user", async () => {
    const mallory = await client.registeredUser('mallory@example.com', PASSWORD);
    const victim = await client.registeredUser('victim@example.com', PASSWORD);
    const options = (await call('POST', '/v3/sso/users/me/webauthn/enable/options', { token: mallory, body: {} })).json();
    const response = new SoftAuthenticator(origin).register(options);
    const attempt = await call('POST', '/v3/sso/users/me/webauthn/enable', { token: victim, body: { response } });
    expect(attempt.json().code).toBe('auth.passkey_failed');
  });
});

describe('a passkey as the proof of re-authentication', () => {
  const SIX_MINUTES = 6 * 60_000;
  const reauthOptions = async (token: string) => {
    const answer = await call('POST', '/v3/sso/me/reauth/passkey/options', { token });
    expect(answer.statusCode).toBe(200);
    return answer.json() as Json;
  };
  const reauth = (token: string, passkey: Json) => call('POST', '/v3/sso/me/reauth', { token, body: { passkey } });
  const createKey = (token: string) => call('POST', '/v3/sso/me/api-keys', { token, body: { name: 'after proof', scopes: ['me:read'] } });

  it("accepts a user-verified assertion of one of the account's own passkeys, for a challenge issued to the account, once", async () => {
    const { token, authenticator, passkey } = await userWithPasskey('reauth-passkey@example.com');
    const other = await userWithPasskey('reauth-passkey-other@example.com');
    clock.advance(SIX_MINUTES);
    expect((await createKey(token)).json().code).toBe('auth.reauth_required');

    const options = await reauthOptions(token);
    expect(options.userVerification).toBe('required');
    expect((options.allowCredentials as Array<{ id: string }>).map((credential) => credential.id)).toEqual([authenticator.credentials[0]!.id.toString('base64url')]);

    // Someone else's passkey, no user verification, a sign-in challenge, another account's challenge: refused.
    expect((await reauth(token, other.authenticator.assert(await reauthOptions(token)))).json().code).toBe('auth.passkey_failed');
    expect((await reauth(token, authenticator.assert(await reauthOptions(token), { userNotVerified: true }))).json().code).toBe('auth.passkey_failed');
    expect((await reauth(token, authenticator.assert(await authOptions()))).json().code).toBe('auth.passkey_failed');
    expect((await reauth(token, authenticator.assert(await reauthOptions(other.token)))).json().code).toBe('auth.passkey_failed');
    expect((await createKey(token)).statusCode).toBe(403);

    const proof = authenticator.assert(await reauthOptions(token));
    expect((await reauth(token, proof)).statusCode).toBe(204);
    expect((await createKey(token)).statusCode).toBe(201);
    // The challenge is spent: the same assertion is no proof a second time.
    expect((await reauth(token, proof)).json().code).toBe('auth.passkey_failed');
    const listed = (await call('GET', '/v3/sso/users/me/webauthn', { token })).json() as Json[];
    expect(listed.find((row) => row.id === passkey.id)?.last_used_at).not.toBeNull();
  });

  it('removes a passkey only on a recent proof: an old session is asked to prove it is the owner first', async () => {
    const { token, authenticator, passkey } = await userWithPasskey('remove-old-session@example.com');
    clock.advance(SIX_MINUTES);
    const refused = await call('DELETE', `/v3/sso/users/me/webauthn/${passkey.id}`, { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.reauth_required');
    expect(((await call('GET', '/v3/sso/users/me/webauthn', { token })).json() as Json[]).map((row) => row.id)).toEqual([passkey.id]);

    expect((await reauth(token, authenticator.assert(await reauthOptions(token)))).statusCode).toBe(204);
    expect((await call('DELETE', `/v3/sso/users/me/webauthn/${passkey.id}`, { token })).statusCode).toBe(204);
  });

  it('adds a passkey to a two-step account only on a recent second step: a session and the password are not enough', async () => {
    const token = await client.registeredUser('second-step-passkey@example.com', PASSWORD);
    const { secret } = (await call('POST', '/v3/sso/me/2fa/totp/setup', { token })).json();
    const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) }) } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const addOptions = () => call('POST', '/v3/sso/users/me/webauthn/enable/options', { token, body: { algorithms: ['es256'] } });

    // Turning two-step on proved the new second step: a passkey may follow at once.
    expect((await addOptions()).statusCode).toBe(200);
    clock.advance(SIX_MINUTES);

    // Whoever holds the session and the password proves a factor again: enough for other changes...
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { password: PASSWORD } })).statusCode).toBe(204);
    // ...not for a passkey, which would sign in as both factors from then on.
    const refused = await addOptions();
    expect([refused.statusCode, refused.json().code, refused.json().details]).toEqual([403, 'auth.reauth_required', { second_step: true }]);
    const sneaked = await call('POST', '/v3/sso/users/me/webauthn/enable', { token, body: { response: { id: 'x' } } });
    expect(sneaked.json().code).toBe('auth.reauth_required');
    expect((await call('GET', '/v3/sso/users/me/webauthn', { token })).json()).toEqual([]);

    // The second step proves it; a password proof after it does not take it away.
    const code = await generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { code } })).statusCode).toBe(204);
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { password: PASSWORD } })).statusCode).toBe(204);
    const options = await addOptions();
    expect(options.statusCode, options.body).toBe(200);
    const authenticator = new SoftAuthenticator(origin);
    expect((await call('POST', '/v3/sso/users/me/webauthn/enable', { token, body: { response: authenticator.register(options.json()) } })).statusCode).toBe(200);

    // An account without two-step: the password's proof is enough.
    const plain = await client.registeredUser('plain-passkey@example.com', PASSWORD);
    clock.advance(SIX_MINUTES);
    expect((await call('POST', '/v3/sso/me/reauth', { token: plain, body: { password: PASSWORD } })).statusCode).toBe(204);
    expect((await call('POST', '/v3/sso/users/me/webauthn/enable/options', { token: plain, body: { algorithms: ['es256'] } })).statusCode).toBe(200);
  });

  it('answers 404 for options when the account has no passkey, and needs a session', async () => {
    const token = await client.registeredUser('reauth-no-passkey@example.com', PASSWORD);
    expect((await call('POST', '/v3/sso/me/reauth/passkey/options', { token })).json().code).toBe('auth.passkey_not_found');
    expect((await call('POST', '/v3/sso/me/reauth/passkey/options')).statusCode).toBe(401);
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { passkey: { id: 'x' } } })).json().code).toBe('auth.passkey_failed');
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { passkey: { id: 'x' }, password: PASSWORD } })).statusCode).toBe(400);
  });
});

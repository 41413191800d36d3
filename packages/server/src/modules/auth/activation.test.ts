import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeys, users } from '../../db/schema';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { solveCaptcha } from '../../../test/captcha';

/**
 * Pre-account takeover: a stranger registers someone's address first (their password, or a
 * passkey), hoping the owner activates that account later. Activation and recovery give the
 * account only the credentials of whoever proved the mailbox.
 */
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const STRANGER = 'stranger-picked-this-1';
const OWNER = 'owner-chose-this-22';
const LINK = /\/confirmation\/([\w-]+)/;

beforeAll(async () => {
  server = await startTestServer();
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

/** 'ok', or the error code of the refusal. */
const signInWith = async (email: string, password: string) => {
  const response = await client.signIn(email, password);
  return response.statusCode === 200 ? 'ok' : (response.json().code as string);
};
const userId = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email)))[0]!.id;

/** A passkey on the account, as a stranger's passkey sign-up would have left it. */
async function strangersPasskey(email: string): Promise<void> {
  await server.database.db.insert(passkeys).values({
    id: randomUUID(),
    userId: await userId(email),
    credentialId: randomBytes(16).toString('base64url'),
    publicKey: randomBytes(65),
    name: "Stranger's key",
  });
}
const passkeyCount = async (email: string) => (await server.database.db.select().from(passkeys).where(eq(passkeys.userId, await userId(email)))).length;

describe('activation gives the account the credentials of the registration it was mailed for', () => {
  it("drops a stranger's earlier password and passkey when the owner registers and activates", async () => {
    await client.signUp('first-come@example.com', STRANGER);
    const [, strangersLink] = await client.mailTo('first-come@example.com', LINK);
    await strangersPasskey('first-come@example.com');
    await client.signUp('first-come@example.com', OWNER, { full_name: 'The Owner' });
    const [, ownersLink] = await client.mailTo('first-come@example.com', LINK, [strangersLink!]);

    expect((await client.post('/v3/sso/users/activate', { token: ownersLink })).json()).toEqual({ email: 'first-come@example.com', needs_password: false });
    expect(await signInWith('first-come@example.com', OWNER)).toBe('ok');
    expect(await signInWith('first-come@example.com', STRANGER)).toBe('auth.invalid_credentials');
    expect(await passkeyCount('first-come@example.com')).toBe(0);
    const [row] = await server.database.db.select().from(users).where(eq(users.email, 'first-come@example.com'));
    expect(row!.fullName).toBe('The Owner');
  });

  it("leaves a stranger nothing when the owner follows the stranger's own activation link", async () => {
    // The stranger signs up with the owner's address (a password, then a passkey on the account)...
    await client.signUp('pre-hijack@example.com', STRANGER);
    await strangersPasskey('pre-hijack@example.com');
    const [, link] = await client.mailTo('pre-hijack@example.com', LINK);
    // ...and the owner, finding the mail in their mailbox, follows it in their own browser.
    const owner = await server.app.inject({ method: 'POST', url: '/v3/sso/users/activate', payload: { token: link }, remoteAddress: '203.0.113.9' });
    expect(owner.json()).toEqual({ email: 'pre-hijack@example.com', needs_password: true });
    expect(await signInWith('pre-hijack@example.com', STRANGER)).toBe('auth.invalid_credentials');
    expect(await passkeyCount('pre-hijack@example.com')).toBe(0);
    // The owner chooses a password through recovery (the mailbox again) and signs in.
    await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'pre-hijack@example.com', email: 'pre-hijack@example.com' }, {}, '203.0.113.9');
    const [, code] = await client.mailTo('pre-hijack@example.com', /\b(\d{6})\b/);
    const { reset_token } = (await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'pre-hijack@example.com', code }, {}, '203.0.113.9')).json();
    expect((await client.post('/v3/sso/password/reset', { token: reset_token, new_password: OWNER, confirm_password: OWNER }, {}, '203.0.113.9')).statusCode).toBe(204);
    expect(await signInWith('pre-hijack@example.com', OWNER)).toBe('ok');
    expect(await signInWith('pre-hijack@example.com', STRANGER)).toBe('auth.invalid_credentials');
  });

  it('keeps the password and passkey of a sign-up whose link is followed in the browser that signed up', async () => {
    await client.signUp('own-browser@example.com', OWNER);
    await strangersPasskey('own-browser@example.com');
    expect((await client.activate('own-browser@example.com')).json()).toEqual({ email: 'own-browser@example.com', needs_password: false });
    expect(await signInWith('own-browser@example.com', OWNER)).toBe('ok');
    expect(await passkeyCount('own-browser@example.com')).toBe(1);
  });

  it("keeps the owner's link working when a stranger registers the address after them", async () => {
    await client.signUp('second-come@example.com', OWNER);
    const [, ownersLink] = await client.mailTo('second-come@example.com', LINK);
    await client.signUp('second-come@example.com', STRANGER);
    const [, strangersLink] = await client.mailTo('second-come@example.com', LINK, [ownersLink!]);

    expect((await client.post('/v3/sso/users/activate', { token: ownersLink })).statusCode).toBe(200);
    // The stranger's link, followed later, changes nothing on an active account.
    await client.post('/v3/sso/users/activate', { token: strangersLink });
    expect(await signInWith('second-come@example.com', OWNER)).toBe('ok');
    expect(await signInWith('second-come@example.com', STRANGER)).toBe('auth.invalid_credentials');
  });

  it('keeps the password the account was created with when its activation is resent, and the first link working', async () => {
    await client.signUp('resent@example.com', OWNER);
    const [, first] = await client.mailTo('resent@example.com', LINK);
    await client.post('/v3/sso/users/activation/resend', { email: 'resent@example.com', captcha: await solveCaptcha(server.app) });
    const [, resent] = await client.mailTo('resent@example.com', LINK, [first!]);
    expect((await client.post('/v3/sso/users/activate', { token: resent })).statusCode).toBe(200);
    expect(await signInWith('resent@example.com', OWNER)).toBe('ok');
    // The first link, followed after, finds the account active and changes nothing; then it is spent.
    expect((await client.post('/v3/sso/users/activate', { token: first })).statusCode).toBe(200);
    expect((await client.post('/v3/sso/users/activate', { token: first })).json().code).toBe('auth.activation_link_invalid');
    expect(await signInWith('resent@example.com', OWNER)).toBe('ok');
  });

  it('a password reset of a never-activated account drops passkeys nobody proved the mailbox for', async () => {
    await client.signUp('reset-first@example.com', STRANGER);
    await strangersPasskey('reset-first@example.com');
    await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'reset-first@example.com', email: 'reset-first@example.com' });
    const [, code] = await client.mailTo('reset-first@example.com', /\b(\d{6})\b/);
    const { reset_token } = (await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'reset-first@example.com', code })).json();
    expect((await client.post('/v3/sso/password/reset', { token: reset_token, new_password: OWNER, confirm_password: OWNER })).statusCode).toBeLessThan(300);
    expect(await passkeyCount('reset-first@example.com')).toBe(0);
    expect(await signInWith('reset-first@example.com', OWNER)).toBe('ok');
  });

  it('resends a contested account no earlier credentials: neither password works until one is chosen', async () => {
    await client.signUp('contested@example.com', STRANGER);
    const [, strangersLink] = await client.mailTo('contested@example.com', LINK);
    await client.signUp('contested@example.com', OWNER);
    const [, ownersLink] = await client.mailTo('contested@example.com', LINK, [strangersLink!]);
    await client.post('/v3/sso/users/activation/resend', { email: 'contested@example.com', captcha: await solveCaptcha(server.app) });
    const [, resent] = await client.mailTo('contested@example.com', LINK, [strangersLink!, ownersLink!]);
    // Activated with no way to sign in yet: the page leads to choosing a password.
    expect((await client.post('/v3/sso/users/activate', { token: resent })).json()).toEqual({ email: 'contested@example.com', needs_password: true });
    expect(await signInWith('contested@example.com', STRANGER)).toBe('auth.invalid_credentials');
    expect(await signInWith('contested@example.com', OWNER)).toBe('auth.invalid_credentials');
  });
});

import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { companySsoTestServer } from '../../../test/company-sso';
import { roomyTotpEpoch } from '../../../test/totp';
import { organizationMembers, users } from '../../db/schema';

/**
 * An attacker who holds a member's password (and second factor) against an organization that
 * requires SSO: whatever identifier they type, whenever the membership or the requirement
 * changed, a password never ends in a session the organization's IdP did not vouch for. And
 * nobody learns from the refusal what a wrong password would not tell them.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const ORGANIZATION = 'Umbrella';

const h = companySsoTestServer({ clientId: 'require-portal', clientSecret: 'require-portal-secret-0123456789abcdef', addresses: '127.16' });

beforeAll(async () => {
  await h.organizationWithIdp(ORGANIZATION, 'umbrella', 'umbrella.test');
  await h.admin.setRequireSso({ organization: ORGANIZATION, requireSso: true });
});

const post = (url: string, payload: object, token?: string, method: 'POST' | 'PUT' = 'POST') =>
  h.server.app.inject({ method, url, payload, remoteAddress: h.nextAddress(), headers: { 'user-agent': 'vitest', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
const signIn = (identifier: string, password = PASSWORD) => post('/v3/sso/auth', { email: identifier, password });
const removeMember = (email: string) => h.server.database.db.delete(organizationMembers).where(eq(organizationMembers.email, email));
const accountId = async (email: string) => (await h.server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
const deletionOf = async (email: string) =>
  (await h.server.database.db.select({ deletionRequestedAt: users.deletionRequestedAt, deletionDueAt: users.deletionDueAt }).from(users).where(eq(users.email, email)))[0]!;
/** The refusal a password (or what came after one) meets from an organization that requires SSO: no session. */
function expectSsoRequired(answer: { statusCode: number; body: string; json(): { code?: string; token?: string } }) {
  expect(answer.statusCode, answer.body).toBe(403);
  expect(answer.json().code).toBe('sso.required');
  expect(answer.json().token).toBeUndefined();
}
/** A membership row that names the account of `email` (by its id) as well as the address. */
async function linkedMember(email: string, accountEmail = email) {
  const organization = await h.organizations.resolve(ORGANIZATION);
  await h.server.database.db.insert(organizationMembers).values({ organizationId: organization.id, email, userId: await accountId(accountEmail), role: 'member' });
}
/** The account's email changes while its membership row keeps the old one (as every change did before rows followed their account). */
const moveAccount = (from: string, to: string) => h.server.database.db.update(users).set({ email: to }).where(eq(users.email, from));

/** A registered account with TOTP on: its password sign-in answers a challenge one of its recovery codes completes. */
async function twoStepAccount(email: string): Promise<{ recoveryCode: string }> {
  const token = await h.client.registeredUser(email, PASSWORD);
  const setup = await post('/v3/sso/me/2fa/totp/setup', {}, token);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json() as { secret: string };
  const enabled = await post('/v3/sso/me/2fa/totp/enable', { code: await generate({ secret, epoch: await roomyTotpEpoch() }) }, token);
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { recoveryCode: (enabled.json().recovery_codes as string[])[0]! };
}

/** The password step of a two-step sign-in: its mfa_token. */
async function passwordStep(email: string): Promise<string> {
  const answer = await signIn(email);
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.json()).toMatchObject({ mfa_required: true });
  return answer.json().mfa_token as string;
}
// A recovery code, not a TOTP code: the one enabling TOTP used the current step's.
const secondStep = (mfaToken: string, recoveryCode: string) => post('/v3/sso/auth/mfa', { mfa_token: mfaToken, recovery_code: recoveryCode });

describe('a password against an organization that requires SSO', () => {
  it('is refused whichever identifier names the member: the email in any case or spacing, or the username', async () => {
    const email = 'named@umbrella.test';
    const token = await h.client.registeredUser(email, PASSWORD);
    const named = await post('/v3/sso/me', { full_name: 'Named Member', username: 'NamedMember', language: 'en' }, token, 'PUT');
    expect(named.statusCode, named.body).toBe(200);
    await h.organizations.addMemberTo(ORGANIZATION, email);
    for (const identifier of [email, '  Named@Umbrella.TEST ', 'namedmember', 'NAMEDMEMBER', ' NamedMember ']) {
      const answer = await signIn(identifier);
      expect(answer.statusCode, `${identifier}: ${answer.body}`).toBe(403);
      expect(answer.json().code).toBe('sso.required');
      expect(answer.json().token).toBeUndefined();
    }
  });

  it('is refused from the sign-in after the person joins, and signs them in again once removed', async () => {
    const email = 'joiner@umbrella.test';
    await h.client.registeredUser(email, PASSWORD);
    expect((await signIn(email)).statusCode).toBe(200);
    await h.organizations.addMemberTo(ORGANIZATION, email);
    const refused = await signIn(email);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().code).toBe('sso.required');
    await removeMember(email);
    const again = await signIn(email);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().token).toBeTruthy();
  });

  it('answers a wrong password for a member exactly as for a non-member and for an unknown email', async () => {
    const member = 'wrong-member@umbrella.test';
    const outsider = 'wrong-outsider@example.test';
    await Promise.all([h.client.registeredUser(member, PASSWORD), h.client.registeredUser(outsider, PASSWORD)]);
    await h.organizations.addMemberTo(ORGANIZATION, member);
    const answers = await Promise.all([member, outsider, 'wrong-nobody@umbrella.test'].map(async (email) => {
      const answer = await signIn(email, 'not-the-password-42');
      return `${answer.statusCode} ${answer.body.split(email).join('<email>')}`;
    }));
    expect(answers[0]).toContain('auth.invalid_credentials');
    expect(new Set(answers).size, answers.join('\n')).toBe(1);
  });
});

describe('the second step of a password sign-in', () => {
  it('is refused when the person joined an organization that requires SSO after the password step', async () => {
    const email = 'joined-meanwhile@umbrella.test';
    const { recoveryCode } = await twoStepAccount(email);
    const mfaToken = await passwordStep(email);
    await h.organizations.addMemberTo(ORGANIZATION, email);
    const answer = await secondStep(mfaToken, recoveryCode);
    expectSsoRequired(answer);
  });

  it("is refused when the member's organization started requiring SSO after the password step", async () => {
    const email = 'required-meanwhile@umbrella.test';
    const { recoveryCode } = await twoStepAccount(email);
    await h.admin.setRequireSso({ organization: ORGANIZATION, requireSso: false });
    try {
      await h.organizations.addMemberTo(ORGANIZATION, email);
      const mfaToken = await passwordStep(email);
      await h.admin.setRequireSso({ organization: ORGANIZATION, requireSso: true });
      const answer = await secondStep(mfaToken, recoveryCode);
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json().code).toBe('sso.required');
    } finally {
      await h.admin.setRequireSso({ organization: ORGANIZATION, requireSso: true });
    }
  });
});

describe('a restore token of a password sign-in', () => {
  it('is refused when the person joined an organization that requires SSO after the token was issued', async () => {
    const email = 'restore-meanwhile@umbrella.test';
    const token = await h.client.registeredUser(email, PASSWORD);
    expect((await post('/v3/sso/me/deletion', { password: PASSWORD, confirmation: 'DELETE' }, token)).statusCode).toBe(200);
    const pending = await signIn(email);
    expect(pending.json().code, pending.body).toBe('account.deletion_pending');
    await h.organizations.addMemberTo(ORGANIZATION, email);
    const answer = await post('/v3/sso/auth/restore', { restore_token: pending.json().details.restore_token });
    expectSsoRequired(answer);
  });

  it('leaves the deletion scheduled when the restore is refused: only a restore that ends in a session cancels it', async () => {
    const email = 'restore-refused@umbrella.test';
    const token = await h.client.registeredUser(email, PASSWORD);
    expect((await post('/v3/sso/me/deletion', { password: PASSWORD, confirmation: 'DELETE' }, token)).statusCode).toBe(200);
    const scheduled = await deletionOf(email);
    expect(scheduled.deletionDueAt).toBeInstanceOf(Date);
    const pending = await signIn(email);
    expect(pending.json().code, pending.body).toBe('account.deletion_pending');
    await h.organizations.addMemberTo(ORGANIZATION, email);
    expectSsoRequired(await post('/v3/sso/auth/restore', { restore_token: pending.json().details.restore_token }));
    expect(await deletionOf(email)).toEqual(scheduled);
  });
});

describe('an account scheduled for deletion whose organization requires SSO', () => {
  it("is restored by a sign-in through the organization's IdP, as any sign-in restores it", async () => {
    const person = { sub: 'leaving-member', email: 'leaving@umbrella.test', name: 'Leaving Member' };
    const first = await h.oidcSignIn(person, 'umbrella');
    expect(first.statusCode, first.body).toBe(200);
    const due = new Date(Date.now() + 14 * 24 * 60 * 60 * 1000);
    await h.server.database.db.update(users).set({ deletionRequestedAt: new Date(), deletionDueAt: due }).where(eq(users.email, person.email));
    const pending = await h.oidcSignIn(person, 'umbrella');
    expect(pending.statusCode, pending.body).toBe(403);
    expect(pending.json().code).toBe('account.deletion_pending');
    const restored = await post('/v3/sso/auth/restore', { restore_token: pending.json().details.restore_token });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().token).toBeTruthy();
    expect(await deletionOf(person.email)).toEqual({ deletionRequestedAt: null, deletionDueAt: null });
  });
});

describe('a member whose row names their account under an address the account gave up', () => {
  it('is refused a password sign-in: the row binds the account it names, whatever its email', async () => {
    const old = 'moved@umbrella.test';
    const current = 'moved@elsewhere.test';
    await h.client.registeredUser(old, PASSWORD);
    await linkedMember(old);
    await moveAccount(old, current);
    const answer = await signIn(current);
    expectSsoRequired(answer);
  });

  it("is refused at the second step when the row naming the account appeared after the password step", async () => {
    const old = 'moved-two-step@umbrella.test';
    const current = 'moved-two-step@elsewhere.test';
    const { recoveryCode } = await twoStepAccount(old);
    await moveAccount(old, current);
    const mfaToken = await passwordStep(current);
    await linkedMember(old, current);
    const answer = await secondStep(mfaToken, recoveryCode);
    expectSsoRequired(answer);
  });

  it("does not bind the next holder of that address: a row naming another account is that account's only", async () => {
    const address = 'handed-on@umbrella.test';
    await h.client.registeredUser(address, PASSWORD);
    const [, firstHoldersLink = ''] = await h.client.mailTo(address, /\/confirmation\/([\w-]+)/);
    await linkedMember(address);
    await moveAccount(address, 'handed-on@elsewhere.test');
    await h.client.signUp(address, PASSWORD);
    expect((await h.client.activate(address, [firstHoldersLink])).statusCode).toBe(200);
    const answer = await signIn(address);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().token).toBeTruthy();
  });
});

import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, CODE_MAIL, companySsoOrganizations, PASSWORD, refusal } from '../../../test/company-sso-organizations';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { companySsoDomains, companySsoIdentities, organizationAuditEvents, users } from '../../db/schema';

/**
 * Company SSO through an organization's OpenID Connect IdP (a second oidc-provider the test
 * starts): just-in-time membership, account takeover refused, the browser that started a sign-in
 * bound to its answer, two-step verification, and require-SSO.
 */
const { h, oidcSignIn, userByEmail, memberRow, me } = companySsoOrganizations('127.11');
const { nextAddress } = h;

describe('OpenID Connect company SSO', () => {
  it('provisions a new person just in time as an active member, then signs the returning member in by subject', async () => {
    const first = await oidcSignIn({ sub: 'acme-jit-1', email: 'New.Person@acme.test', name: 'New Person' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe(first.json().token);
    expect((await me(first.json().token)).json()).toMatchObject({ email: 'new.person@acme.test', full_name: 'New Person' });
    const user = await userByEmail('new.person@acme.test');
    expect(user?.activatedAt).toBeInstanceOf(Date);
    expect(user?.passwordHash).toBeNull();
    expect(await memberRow('new.person@acme.test')).toMatchObject({ userId: user!.id, role: 'member' });
    // The IdP's email may change; the subject is who it is.
    const again = await oidcSignIn({ sub: 'acme-jit-1', email: 'renamed@acme.test', name: 'New Person' });
    expect(again.statusCode, again.body).toBe(200);
    expect((await me(again.json().token)).json().email).toBe('new.person@acme.test');
    expect(await userByEmail('renamed@acme.test')).toBeUndefined();
    // The organization's audit log names the way in, from the first sign-in on (the membership came with the account).
    const audited = await h.server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.targetUserId, user!.id));
    expect(audited.filter((event) => event.action === 'sign_in').map((event) => event.detail.method)).toEqual(['sso', 'sso']);
    // The just-in-time membership too, with the person as its actor.
    const joined = await h.server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.targetEmail, 'new.person@acme.test'));
    expect(joined.filter((event) => event.action === 'member_joined').map((event) => [event.actorEmail, event.detail])).toEqual([['new.person@acme.test', { role: 'member', via: 'sso' }]]);
  });

  it('provisions one account, link and membership when the same new person signs in from several tabs at once', async () => {
    // Several people, each from four tabs: the windows between a tab's steps are short, so one person alone seldom lands in them.
    for (const person of ['tabs-1', 'tabs-2', 'tabs-3', 'tabs-4', 'tabs-5']) {
      const email = `${person}@acme.test`;
      const answers = await Promise.all(Array.from({ length: 4 }, () => oidcSignIn({ sub: `acme-${person}`, email, name: 'Tabs' })));
      // The account, its link and the membership commit together: a tab that lost the race to make them signs in
      // with the winner's (never refused as not a member, nor asked to link the account being made).
      expect(answers.map((answer) => [answer.statusCode, answer.json().code]), email).toEqual(answers.map(() => [200, undefined]));
      expect(await h.server.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
      expect(await h.server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, `acme-${person}`))).toHaveLength(1);
      expect(await memberRow(email)).toMatchObject({ role: 'member' });
    }
  });

  it('refuses an email of a domain this organization did not verify, creating nothing', async () => {
    for (const email of ['someone@gmail.test', 'peter2@initech.test', 'x@globex.test']) {
      const refused = await oidcSignIn({ sub: `acme-foreign-${email}`, email, name: 'Foreign' });
      expect(refused.statusCode, email).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'sso.domain_not_verified', details: { email } });
      expect(await userByEmail(email)).toBeUndefined();
    }
    const noEmail = await oidcSignIn({ sub: 'acme-no-email', name: 'Nameless' });
    expect(noEmail.json().code).toBe('sso.email_missing');
  });

  it('never links, signs in or adds an existing account that is not a member: its owner signs in and confirms', async () => {
    // Someone registered the address but never proved the mailbox: the IdP cannot take it over.
    await h.client.signUp('squatted@acme.test', PASSWORD);
    const refused = await oidcSignIn({ sub: 'acme-squat', email: 'squatted@acme.test', name: 'Real Owner' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'sso.account_unverified', details: { email: 'squatted@acme.test' } });
    const squatted = await userByEmail('squatted@acme.test');
    expect(squatted?.activatedAt).toBeNull();
    expect(await h.server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'acme-squat'))).toEqual([]);
    expect(await memberRow('squatted@acme.test')).toBeUndefined();

    // An active account at the proved domain that never joined: the IdP's word is not enough.
    const victimToken = await h.client.registeredUser('active@acme.test', PASSWORD);
    const refusedLink = await oidcSignIn({ sub: 'acme-active', email: 'active@acme.test', name: 'Active' });
    expect(refusedLink.statusCode, refusedLink.body).toBe(409);
    expect(refusedLink.json()).toMatchObject({ code: 'sso.link_required', details: { email: 'active@acme.test', organization: 'Acme' } });
    expect(refusedLink.json().token).toBeUndefined();
    expect(refusedLink.cookies.find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
    expect(await h.server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'acme-active'))).toEqual([]);
    expect(await memberRow('active@acme.test')).toBeUndefined();
    // The pending link stays in that browser only (sealed, never in the answer).
    const pending = refusedLink.cookies.find((cookie) => cookie.name === 'portal_sso_link');
    expect(pending?.httpOnly).toBe(true);
    expect(refusedLink.body).not.toContain(pending!.value);

    const link = (token: string, method: 'GET' | 'POST', cookie?: string) =>
      h.server.app.inject({ method, url: '/v3/sso/me/organization/sso/link', headers: { authorization: `Bearer ${token}` }, cookies: cookie ? { portal_sso_link: cookie } : {} });
    // Another account (the attacker's) cannot confirm it, nor can a browser without it.
    const otherToken = await h.client.registeredUser('other-person@acme.test', PASSWORD);
    expect((await link(otherToken, 'POST', pending!.value)).json().code).toBe('sso.link_other_account');
    expect((await link(victimToken, 'POST')).json().code).toBe('sso.link_invalid');
    expect(await memberRow('active@acme.test')).toBeUndefined();
    // The owner, signed in their own way, sees whose IdP it is and confirms: linked and a member.
    expect((await link(victimToken, 'GET', pending!.value)).json()).toEqual({ organization_name: 'Acme', email: 'active@acme.test' });
    // Confirmed in two tabs at once: one link, one membership, one audit entry.
    const [confirmed, twice] = await Promise.all([link(victimToken, 'POST', pending!.value), link(victimToken, 'POST', pending!.value)]);
    expect([confirmed!.statusCode, twice!.statusCode], confirmed!.body).toEqual([200, 200]);
    // Acme does not require SSO: the session that confirmed goes on.
    expect(confirmed!.json()).toEqual({ organization_name: 'Acme', email: 'active@acme.test', sso_required: false });
    expect(confirmed!.cookies.find((cookie) => cookie.name === 'portal_sso_link')?.value).toBe('');
    expect((await me(victimToken)).statusCode).toBe(200);
    const active = await userByEmail('active@acme.test');
    expect(await memberRow('active@acme.test')).toMatchObject({ organizationId: (await h.organizations.resolve('Acme')).id, userId: active!.id, role: 'member' });
    expect(await h.server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'acme-active'))).toHaveLength(1);
    const joined = await h.server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.targetEmail, 'active@acme.test'));
    expect(joined.filter((event) => event.action === 'member_joined')).toHaveLength(1);
    // From now on the IdP signs them in by subject.
    const linked = await oidcSignIn({ sub: 'acme-active', email: 'active@acme.test', name: 'Active' });
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await me(linked.json().token)).json().email).toBe('active@acme.test');
  });

  it("signs a linked identity in only while the person is a member: removal or leaving ends it at once", async () => {
    const first = await oidcSignIn({ sub: 'acme-leaver', email: 'leaver@acme.test', name: 'Leaver' });
    expect(first.statusCode, first.body).toBe(200);
    const left = await h.server.app.inject({ method: 'POST', url: '/v3/sso/me/organization/leave', headers: { authorization: `Bearer ${first.json().token}` } });
    expect(left.statusCode, left.body).toBe(204);
    expect(await memberRow('leaver@acme.test')).toBeUndefined();
    const refused = await oidcSignIn({ sub: 'acme-leaver', email: 'leaver@acme.test', name: 'Leaver' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'sso.not_member']);
    expect(refused.json().token).toBeUndefined();
    // Now in another organization that requires SSO: Acme's IdP does not satisfy it either.
    await h.organizations.addMemberTo('Globex', 'leaver@acme.test');
    await h.admin.setRequireSso({ organization: 'Globex', requireSso: true });
    try {
      expect((await oidcSignIn({ sub: 'acme-leaver', email: 'leaver@acme.test', name: 'Leaver' })).json().code).toBe('sso.not_member');
    } finally {
      await h.admin.setRequireSso({ organization: 'Globex', requireSso: false });
    }
  });

  it('takes over nobody through a free-mail domain, even one marked verified before such claims were refused', async () => {
    const victimToken = await h.client.registeredUser('victim@gmail.com', PASSWORD);
    await h.organizations.createNamed({ name: 'Freeloader', adminEmail: 'attacker@gmail.com' });
    await h.admin.configureOidc({ organization: 'Freeloader', identifier: 'freeloader', issuer: h.idp.issuer, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret });
    expect(await refusal(h.admin.addDomain({ organization: 'Freeloader', domain: 'gmail.com' }))).toMatch(/cannot be claimed/);
    const freeloader = await h.organizations.resolve('Freeloader');
    await h.server.database.db.insert(companySsoDomains).values({ organizationId: freeloader.id, domain: 'gmail.com', dnsToken: 'old-claim', createdAt: new Date(), verifiedAt: new Date(), verifiedBy: 'mail' });
    const refused = await oidcSignIn({ sub: 'freeloader-victim', email: 'victim@gmail.com', name: 'Victim' }, { identifier: 'freeloader' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'sso.domain_not_verified']);
    expect(await memberRow('victim@gmail.com')).toBeUndefined();
    expect(await h.server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'freeloader-victim'))).toEqual([]);
    expect((await me(victimToken)).json().email).toBe('victim@gmail.com');
  });

  it('refuses a member of another organization', async () => {
    await h.organizations.addMemberTo('Globex', 'double@acme.test');
    const refused = await oidcSignIn({ sub: 'acme-double', email: 'double@acme.test', name: 'Double' });
    expect(refused.json()).toMatchObject({ code: 'sso.member_elsewhere' });
    expect(await userByEmail('double@acme.test')).toBeUndefined();
  });

  it('ties the answer to the browser that started it (state, sealed cookie) and uses a code once', async () => {
    expect((await oidcSignIn({ sub: 'acme-state', email: 'state@acme.test' }, { cookie: null })).json().code).toBe('sso.state_invalid');
    expect((await oidcSignIn({ sub: 'acme-state', email: 'state@acme.test' }, { state: 'forged' })).json().code).toBe('sso.state_invalid');
    expect((await oidcSignIn({ sub: 'acme-state', email: 'state@acme.test' }, { cookie: 'v1:garbage:garbage' })).json().code).toBe('sso.state_invalid');
    expect(await userByEmail('state@acme.test')).toBeUndefined();
  });

  it('goes through the one pipeline: two-step on answers the second step', async () => {
    const token = await h.client.registeredUser('twostep@acme.test', PASSWORD);
    await h.organizations.addMemberTo('Acme', 'twostep@acme.test');
    const setup = await h.client.post('/v3/sso/me/2fa/totp/setup', {}, { authorization: `Bearer ${token}` });
    const secret = setup.json().secret as string;
    expect((await h.client.post('/v3/sso/me/2fa/totp/enable', { code: await generate({ secret }) }, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const answer = await oidcSignIn({ sub: 'acme-2fa', email: 'twostep@acme.test', name: 'Two' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ mfa_required: true });
    expect(answer.json().token).toBeUndefined();
  });
});

describe('require SSO', () => {
  // An organization without an SSO connection, as the configuration tests leave theirs.
  beforeAll(() => h.organizations.createNamed({ name: 'Initech', adminEmail: 'peter@initech.test' }));

  it("refuses a member's password, email-code and passkey sign-in with a message naming SSO; SSO still signs in", async () => {
    await h.client.registeredUser('required@acme.test', PASSWORD);
    await h.organizations.addMemberTo('Acme', 'required@acme.test');
    const before = await h.client.signIn('required@acme.test', PASSWORD);
    expect(before.statusCode).toBe(200);
    // A passkey added before SSO was required.
    const authenticator = new SoftAuthenticator(h.server.config.PLATFORM_ORIGIN);
    const inject = (url: string, payload: object, token?: string) =>
      h.server.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress(), headers: token ? { authorization: `Bearer ${token}` } : {} });
    const options = (await inject('/v3/sso/users/me/webauthn/enable/options', { algorithms: ['es256'] }, before.json().token)).json();
    expect((await inject('/v3/sso/users/me/webauthn/enable', { response: authenticator.register(options) }, before.json().token)).statusCode).toBe(200);
    const passkeySignIn = async () => inject('/v3/sso/users/webauthn/auth', { response: authenticator.assert((await inject('/v3/sso/users/webauthn/auth/options', {})).json()) });
    expect((await passkeySignIn()).statusCode).toBe(200);
    await h.admin.setRequireSso({ organization: 'Acme', requireSso: true });
    try {
      const refused = await h.client.signIn('required@acme.test', PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'sso.required', details: { sso_url: '/login/sso' } });
      expect(refused.json().message).toMatch(/SSO/);
      // A wrong password still answers as wrong: the refusal tells nothing without the password.
      expect((await h.client.signIn('required@acme.test', 'wrong-password-123')).json().code).toBe('auth.invalid_credentials');
      await h.client.post('/v3/sso/auth/code/send', { email: 'required@acme.test' });
      const [, code] = await h.client.mailTo('required@acme.test', CODE_MAIL);
      const byCode = await h.client.post('/v3/sso/auth/code', { email: 'required@acme.test', code });
      expect(byCode.json().code).toBe('sso.required');
      // Nor a passkey: only the organization's IdP signs its members in.
      expect((await passkeySignIn()).json().code).toBe('sso.required');
      // Someone outside the organization is not concerned.
      await h.client.registeredUser('outsider@example.test', PASSWORD);
      expect((await h.client.signIn('outsider@example.test', PASSWORD)).statusCode).toBe(200);
      const sso = await oidcSignIn({ sub: 'acme-required', email: 'required@acme.test', name: 'Req' });
      expect(sso.statusCode, sso.body).toBe(200);
      expect(sso.json().token).toBeTruthy();
    } finally {
      await h.admin.setRequireSso({ organization: 'Acme', requireSso: false });
    }
    expect((await h.client.signIn('required@acme.test', PASSWORD)).statusCode).toBe(200);
    expect(await refusal(h.admin.setRequireSso({ organization: 'Initech', requireSso: true }))).toMatch(/no SSO connection/);
  });
});

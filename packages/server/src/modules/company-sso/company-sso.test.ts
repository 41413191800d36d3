import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { companySsoTestServer, REDIRECT } from '../../../test/company-sso';
import type { IdpPerson } from '../../../test/fake-idps';
import type { TestServer } from '../../../test/harness';
import type { identityClient } from '../../../test/identity';
import { samlIdp } from '../../../test/saml-idp';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { companySsoConnections, companySsoDomains, companySsoIdentities, organizationAuditEvents, organizationMembers, users } from '../../db/schema';
import { limits } from '../../platform/rate-limit';
import { OrganizationAdminError, type OrganizationService } from '../organizations';
import { CompanySsoAdminError, TXT_PREFIX, type CompanySsoService } from '.';

/**
 * Company SSO against real identity providers the test starts: a second oidc-provider for an
 * organization's OpenID Connect IdP, a SAML IdP that signs real assertions (xml-crypto, a
 * test key pair), and a tiny UDP DNS server for domain verification. Account takeover,
 * just-in-time membership and require-SSO are the point.
 */
const CLIENT = { clientId: 'acme-portal', clientSecret: 'acme-portal-secret-0123456789abcdef' };
const PASSWORD = 'plum-orbit-cactus-917';
const CODE_MAIL = /\n {4}(\d{6})\n/;

const h = companySsoTestServer({ ...CLIENT, redirectUris: [REDIRECT, 'http://locker.localhost:8080/sso/redirect'], addresses: '127.11' });
const { dnsRecords, nextAddress, start, verifiedDomain } = h;
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let idp: typeof h.idp;
let dns: typeof h.dns;
let admin: CompanySsoService;
let organizations: OrganizationService;
const saml = samlIdp();

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CompanySsoAdminError || error instanceof OrganizationAdminError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

beforeAll(async () => {
  ({ server, client, idp, dns, admin, organizations } = h);
  await h.organizationWithIdp('Acme', 'Acme-Corp', 'acme.test');
  await organizations.createNamed({ name: 'Globex', adminEmail: 'hank@globex.test' });
  await admin.configureSaml({ organization: 'Globex', identifier: 'globex', metadataXml: saml.metadata });
  await verifiedDomain('Globex', 'globex.test');
});

/** An OIDC sign-in at Acme's IdP (or the `identifier`'s), walked as a browser would. */
const oidcSignIn = (person: IdpPerson, options: { identifier?: string; state?: string; cookie?: string | null } = {}) => h.oidcSignIn(person, options.identifier ?? 'acme-corp', options);

const userByEmail = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email)))[0];
const memberRow = async (email: string) => (await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.email, email)))[0];
const me = (token: string) => server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });

describe('configuration (operator commands)', () => {
  it('keeps the identifier unique and case-insensitive, of letters, digits and dashes', async () => {
    const [row] = await server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, 'acme-corp'));
    expect(row?.kind).toBe('oidc');
    for (const bad of ['', 'has space', '-dash', 'dash-', 'a_b', 'x'.repeat(64), 'é']) {
      expect(await refusal(admin.configureOidc({ organization: 'Globex', identifier: bad, issuer: idp.issuer, clientId: 'x', clientSecret: 'y'.repeat(10) })), bad).toMatch(/--identifier must be/);
    }
    expect(await refusal(admin.configureSaml({ organization: 'Globex', identifier: 'ACME-corp', metadataXml: saml.metadata }))).toBe('the SSO identifier acme-corp is taken');
    // The refused change left Globex's SAML connection as it was.
    expect((await start('globex')).json().protocol).toBe('saml');
  });

  it('stores the client secret sealed, never in an answer', async () => {
    const [row] = await server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, 'acme-corp'));
    expect(row!.oidcClientSecret).toMatch(/^v1:/);
    expect(row!.oidcClientSecret).not.toContain(CLIENT.clientSecret);
    const started = await start('acme-corp');
    expect(started.body).not.toContain(CLIENT.clientSecret);
    expect(started.json().url).not.toContain(CLIENT.clientSecret);
  });

  it('checks the OIDC settings and the SAML metadata', async () => {
    const oidc = (issuer: string, clientSecret = 'long-enough-secret') => refusal(admin.configureOidc({ organization: 'Acme', identifier: 'acme-corp', issuer, clientId: 'c', clientSecret }));
    expect(await oidc('http://idp.example.com')).toMatch(/https/);
    expect(await oidc('not a url')).toMatch(/absolute https URL/);
    expect(await oidc('https://idp.example.com', 'short')).toMatch(/client secret is required/);
    expect(await refusal(admin.configureOidc({ organization: 'Nobody Inc', identifier: 'x', issuer: idp.issuer, clientId: 'c', clientSecret: 'long-enough-secret' }))).toBe('no organization is named Nobody Inc');
    const metadata = (xml: string) => refusal(admin.configureSaml({ organization: 'Globex', identifier: 'globex', metadataXml: xml }));
    expect(await metadata('<nope')).toMatch(/not well-formed/);
    expect(await metadata(saml.metadata.replace(/<ds:X509Certificate>[^<]+/, '<ds:X509Certificate>AAAA'))).toMatch(/not a valid X.509/);
    expect(await metadata(saml.metadata.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''))).toMatch(/no signing certificate/);
    expect(await metadata(saml.metadata.replace('HTTP-Redirect', 'SOAP'))).toMatch(/HTTP-Redirect/);
    expect(await metadata('<!DOCTYPE x [<!ENTITY e "e">]><x/>')).toMatch(/DOCTYPE/);
    const [row] = await server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, 'globex'));
    expect(row).toMatchObject({ kind: 'saml', samlEntityId: saml.entityId, samlSsoUrl: saml.ssoUrl });
    expect(row!.samlCertificates).toHaveLength(1);
    expect(admin.registrationUrls('globex')).toEqual({
      oidcRedirectUris: ['http://localhost:8080/sso/redirect', 'http://locker.localhost:8080/sso/redirect'],
      entityId: 'http://localhost:8080/v3/_auth/sso/saml/globex',
      acsUrl: 'http://localhost:8080/v3/_auth/sso/saml/globex/acs',
    });
  });
});

describe('domain verification by DNS TXT', () => {
  it('verifies only with the published token, asking the configured DNS server', async () => {
    await organizations.createNamed({ name: 'Initech', adminEmail: 'peter@initech.test' });
    const added = await admin.addDomain({ organization: 'Initech', domain: 'Initech.TEST.' });
    expect(added.domain.domain).toBe('initech.test');
    expect(added.record).toMatch(new RegExp(`^${TXT_PREFIX}[\\w-]{20,}$`));
    // Claiming again keeps the token.
    expect((await admin.addDomain({ organization: 'Initech', domain: 'initech.test' })).record).toBe(added.record);
    const before = dns.queries;
    expect(await refusal(admin.verifyDomain({ organization: 'Initech', domain: 'initech.test' }))).toMatch(/no TXT record portal-verification=/);
    dnsRecords.set('initech.test', [`${TXT_PREFIX}someone-elses-token`]);
    expect(await refusal(admin.verifyDomain({ organization: 'Initech', domain: 'initech.test' }))).toMatch(/no TXT record/);
    expect(dns.queries).toBeGreaterThan(before);
    dnsRecords.set('initech.test', [added.record]);
    const verified = await admin.verifyDomain({ organization: 'Initech', domain: 'initech.test' });
    expect(verified.domain.verifiedAt).toBeInstanceOf(Date);
    expect(await refusal(admin.verifyDomain({ organization: 'Initech', domain: 'unclaimed.test' }))).toMatch(/has not claimed/);
    expect(await refusal(admin.addDomain({ organization: 'Initech', domain: 'not a domain' }))).toMatch(/DNS name/);
  });

  it('lets one organization only verify a domain', async () => {
    // Initech claims Acme's verified domain and even publishes its own token: refused.
    const added = await admin.addDomain({ organization: 'Initech', domain: 'acme.test' });
    dnsRecords.set('acme.test', [...(dnsRecords.get('acme.test') ?? []), added.record]);
    expect(await refusal(admin.verifyDomain({ organization: 'Initech', domain: 'acme.test' }))).toBe('acme.test is verified by another organization');
    // Its claim on the domain leads nowhere: the email still goes to Acme's IdP.
    expect((await start('someone@acme.test')).json().url).toContain(idp.issuer);
  });
});

describe('POST /v3/_auth/sso/start', () => {
  it("answers 'SSO identifier invalid' for unknown identifiers and unverified domains", async () => {
    for (const identifier of ['unknown-co', 'someone@unverified.test', 'someone@initech.test', 'bad identifier!', 'a@b']) {
      const response = await start(identifier);
      expect(response.statusCode, identifier).toBe(400);
      expect(response.json()).toMatchObject({ code: 'sso.identifier_invalid', message: 'SSO identifier invalid' });
    }
    expect((await start('')).statusCode).toBe(400);
    const wrongType = await server.app.inject({ method: 'POST', url: '/v3/_auth/sso/start', payload: { identifier: 42 }, remoteAddress: nextAddress() });
    expect(wrongType.statusCode).toBe(400);
  });

  it('finds the IdP by identifier (any case) or by an email of a verified domain', async () => {
    for (const identifier of ['ACME-CORP', ' acme-corp ', 'Jane@Acme.test']) {
      const response = await start(identifier);
      expect(response.statusCode, identifier).toBe(200);
      expect(new URL(response.json().url).origin).toBe(idp.issuer);
    }
  });

  it('counts starts per address in one atomic step, found or not', async () => {
    const address = '127.12.0.1';
    const answers = await Promise.all(Array.from({ length: limits.companySsoStartPerIp.limit + 6 }, (_, index) => start(index % 2 ? 'acme-corp' : 'nobody', address)));
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(6);
    expect((await start('acme-corp', '127.12.0.2')).statusCode).toBe(200);
  });
});

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
    const audited = await server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.targetUserId, user!.id));
    expect(audited.filter((event) => event.action === 'sign_in').map((event) => event.detail.method)).toEqual(['sso', 'sso']);
    // The just-in-time membership too, with the person as its actor.
    const joined = await server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.targetEmail, 'new.person@acme.test'));
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
      expect(await server.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
      expect(await server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, `acme-${person}`))).toHaveLength(1);
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
    await client.signUp('squatted@acme.test', PASSWORD);
    const refused = await oidcSignIn({ sub: 'acme-squat', email: 'squatted@acme.test', name: 'Real Owner' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'sso.account_unverified', details: { email: 'squatted@acme.test' } });
    const squatted = await userByEmail('squatted@acme.test');
    expect(squatted?.activatedAt).toBeNull();
    expect(await server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'acme-squat'))).toEqual([]);
    expect(await memberRow('squatted@acme.test')).toBeUndefined();

    // An active account at the proved domain that never joined: the IdP's word is not enough.
    const victimToken = await client.registeredUser('active@acme.test', PASSWORD);
    const refusedLink = await oidcSignIn({ sub: 'acme-active', email: 'active@acme.test', name: 'Active' });
    expect(refusedLink.statusCode, refusedLink.body).toBe(409);
    expect(refusedLink.json()).toMatchObject({ code: 'sso.link_required', details: { email: 'active@acme.test', organization: 'Acme' } });
    expect(refusedLink.json().token).toBeUndefined();
    expect(refusedLink.cookies.find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
    expect(await server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'acme-active'))).toEqual([]);
    expect(await memberRow('active@acme.test')).toBeUndefined();
    // The pending link stays in that browser only (sealed, never in the answer).
    const pending = refusedLink.cookies.find((cookie) => cookie.name === 'portal_sso_link');
    expect(pending?.httpOnly).toBe(true);
    expect(refusedLink.body).not.toContain(pending!.value);

    const link = (token: string, method: 'GET' | 'POST', cookie?: string) =>
      server.app.inject({ method, url: '/v3/sso/me/organization/sso/link', headers: { authorization: `Bearer ${token}` }, cookies: cookie ? { portal_sso_link: cookie } : {} });
    // Another account (the attacker's) cannot confirm it, nor can a browser without it.
    const otherToken = await client.registeredUser('other-person@acme.test', PASSWORD);
    expect((await link(otherToken, 'POST', pending!.value)).json().code).toBe('sso.link_other_account');
    expect((await link(victimToken, 'POST')).json().code).toBe('sso.link_invalid');
    expect(await memberRow('active@acme.test')).toBeUndefined();
    // The owner, signed in their own way, sees whose IdP it is and confirms: linked and a member.
    expect((await link(victimToken, 'GET', pending!.value)).json()).toEqual({ organization_name: 'Acme', email: 'active@acme.test' });
    // Confirmed in two tabs at once: one link, one membership, one audit entry.
    const [confirmed, twice] = await Promise.all([link(victimToken, 'POST', pending!.value), link(victimToken, 'POST', pending!.value)]);
    expect([confirmed!.statusCode, twice!.statusCode], confirmed!.body).toEqual([200, 200]);
    expect(confirmed!.json()).toEqual({ organization_name: 'Acme', email: 'active@acme.test' });
    expect(confirmed!.cookies.find((cookie) => cookie.name === 'portal_sso_link')?.value).toBe('');
    const active = await userByEmail('active@acme.test');
    expect(await memberRow('active@acme.test')).toMatchObject({ organizationId: (await organizations.resolve('Acme')).id, userId: active!.id, role: 'member' });
    expect(await server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'acme-active'))).toHaveLength(1);
    const joined = await server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.targetEmail, 'active@acme.test'));
    expect(joined.filter((event) => event.action === 'member_joined')).toHaveLength(1);
    // From now on the IdP signs them in by subject.
    const linked = await oidcSignIn({ sub: 'acme-active', email: 'active@acme.test', name: 'Active' });
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await me(linked.json().token)).json().email).toBe('active@acme.test');
  });

  it("signs a linked identity in only while the person is a member: removal or leaving ends it at once", async () => {
    const first = await oidcSignIn({ sub: 'acme-leaver', email: 'leaver@acme.test', name: 'Leaver' });
    expect(first.statusCode, first.body).toBe(200);
    const left = await server.app.inject({ method: 'POST', url: '/v3/sso/me/organization/leave', headers: { authorization: `Bearer ${first.json().token}` } });
    expect(left.statusCode, left.body).toBe(204);
    expect(await memberRow('leaver@acme.test')).toBeUndefined();
    const refused = await oidcSignIn({ sub: 'acme-leaver', email: 'leaver@acme.test', name: 'Leaver' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'sso.not_member']);
    expect(refused.json().token).toBeUndefined();
    // Now in another organization that requires SSO: Acme's IdP does not satisfy it either.
    await organizations.addMemberTo('Globex', 'leaver@acme.test');
    await admin.setRequireSso({ organization: 'Globex', requireSso: true });
    try {
      expect((await oidcSignIn({ sub: 'acme-leaver', email: 'leaver@acme.test', name: 'Leaver' })).json().code).toBe('sso.not_member');
    } finally {
      await admin.setRequireSso({ organization: 'Globex', requireSso: false });
    }
  });

  it('takes over nobody through a free-mail domain, even one marked verified before such claims were refused', async () => {
    const victimToken = await client.registeredUser('victim@gmail.com', PASSWORD);
    await organizations.createNamed({ name: 'Freeloader', adminEmail: 'attacker@gmail.com' });
    await admin.configureOidc({ organization: 'Freeloader', identifier: 'freeloader', issuer: idp.issuer, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret });
    expect(await refusal(admin.addDomain({ organization: 'Freeloader', domain: 'gmail.com' }))).toMatch(/cannot be claimed/);
    const freeloader = await organizations.resolve('Freeloader');
    await server.database.db.insert(companySsoDomains).values({ organizationId: freeloader.id, domain: 'gmail.com', dnsToken: 'old-claim', createdAt: new Date(), verifiedAt: new Date(), verifiedBy: 'mail' });
    const refused = await oidcSignIn({ sub: 'freeloader-victim', email: 'victim@gmail.com', name: 'Victim' }, { identifier: 'freeloader' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'sso.domain_not_verified']);
    expect(await memberRow('victim@gmail.com')).toBeUndefined();
    expect(await server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'freeloader-victim'))).toEqual([]);
    expect((await me(victimToken)).json().email).toBe('victim@gmail.com');
  });

  it('refuses a member of another organization', async () => {
    await organizations.addMemberTo('Globex', 'double@acme.test');
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
    const token = await client.registeredUser('twostep@acme.test', PASSWORD);
    await organizations.addMemberTo('Acme', 'twostep@acme.test');
    const setup = await client.post('/v3/sso/me/2fa/totp/setup', {}, { authorization: `Bearer ${token}` });
    const secret = setup.json().secret as string;
    expect((await client.post('/v3/sso/me/2fa/totp/enable', { code: await generate({ secret }) }, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const answer = await oidcSignIn({ sub: 'acme-2fa', email: 'twostep@acme.test', name: 'Two' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ mfa_required: true });
    expect(answer.json().token).toBeUndefined();
  });
});

describe('require SSO', () => {
  it("refuses a member's password, email-code and passkey sign-in with a message naming SSO; SSO still signs in", async () => {
    await client.registeredUser('required@acme.test', PASSWORD);
    await organizations.addMemberTo('Acme', 'required@acme.test');
    const before = await client.signIn('required@acme.test', PASSWORD);
    expect(before.statusCode).toBe(200);
    // A passkey added before SSO was required.
    const authenticator = new SoftAuthenticator(server.config.PLATFORM_ORIGIN);
    const inject = (url: string, payload: object, token?: string) =>
      server.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress(), headers: token ? { authorization: `Bearer ${token}` } : {} });
    const options = (await inject('/v3/sso/users/me/webauthn/enable/options', { algorithms: ['es256'] }, before.json().token)).json();
    expect((await inject('/v3/sso/users/me/webauthn/enable', { response: authenticator.register(options) }, before.json().token)).statusCode).toBe(200);
    const passkeySignIn = async () => inject('/v3/sso/users/webauthn/auth', { response: authenticator.assert((await inject('/v3/sso/users/webauthn/auth/options', {})).json()) });
    expect((await passkeySignIn()).statusCode).toBe(200);
    await admin.setRequireSso({ organization: 'Acme', requireSso: true });
    try {
      const refused = await client.signIn('required@acme.test', PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'sso.required', details: { sso_url: '/login/sso' } });
      expect(refused.json().message).toMatch(/SSO/);
      // A wrong password still answers as wrong: the refusal tells nothing without the password.
      expect((await client.signIn('required@acme.test', 'wrong-password-123')).json().code).toBe('auth.invalid_credentials');
      await client.post('/v3/sso/auth/code/send', { email: 'required@acme.test' });
      const [, code] = await client.mailTo('required@acme.test', CODE_MAIL);
      const byCode = await client.post('/v3/sso/auth/code', { email: 'required@acme.test', code });
      expect(byCode.json().code).toBe('sso.required');
      // Nor a passkey: only the organization's IdP signs its members in.
      expect((await passkeySignIn()).json().code).toBe('sso.required');
      // Someone outside the organization is not concerned.
      await client.registeredUser('outsider@example.test', PASSWORD);
      expect((await client.signIn('outsider@example.test', PASSWORD)).statusCode).toBe(200);
      const sso = await oidcSignIn({ sub: 'acme-required', email: 'required@acme.test', name: 'Req' });
      expect(sso.statusCode, sso.body).toBe(200);
      expect(sso.json().token).toBeTruthy();
    } finally {
      await admin.setRequireSso({ organization: 'Acme', requireSso: false });
    }
    expect((await client.signIn('required@acme.test', PASSWORD)).statusCode).toBe(200);
    expect(await refusal(admin.setRequireSso({ organization: 'Initech', requireSso: true }))).toMatch(/no SSO connection/);
  });
});

describe('SAML company SSO', () => {
  const acsUrl = 'http://localhost:8080/v3/_auth/sso/saml/globex/acs';
  const audience = 'http://localhost:8080/v3/_auth/sso/saml/globex';

  async function samlStart(identifier = 'hank@globex.test') {
    const started = await start(identifier);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().protocol).toBe('saml');
    const url = started.json().url as string;
    expect(url.startsWith(`${saml.ssoUrl}?SAMLRequest=`)).toBe(true);
    const request = saml.readRequest(url);
    expect(request).toMatchObject({ acsUrl, issuer: audience });
    // The browser that started it: only it takes the handoff code.
    const cookie = started.cookies.find((item) => item.name === 'portal_sso');
    expect(cookie?.httpOnly).toBe(true);
    return { ...request, cookie: cookie!.value };
  }
  const post = (SAMLResponse: string, identifier = 'globex') =>
    server.app.inject({
      method: 'POST',
      url: `/v3/_auth/sso/saml/${identifier}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.acme.test', 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams({ SAMLResponse, RelayState: '' }).toString(),
      remoteAddress: nextAddress(),
    });
  const finishHandoff = (handoff: string, cookie?: string) =>
    server.app.inject({ method: 'POST', url: '/v3/_auth/sso/finish', payload: { handoff }, cookies: cookie ? { portal_sso: cookie } : {}, remoteAddress: nextAddress() });
  const redirected = (response: { statusCode: number; headers: Record<string, unknown> }) => {
    expect(response.statusCode).toBe(303);
    return new URL(String(response.headers.location));
  };

  it('signs in through a signed assertion: the ACS hands the browser a one-time code, never the assertion', async () => {
    const request = await samlStart();
    const response = saml.response({ requestId: request.id, acsUrl, audience, nameId: 'globex-jit-1', email: 'Wanda@Globex.test', name: 'Wanda' });
    const target = redirected(await post(response));
    expect(target.origin + target.pathname).toBe('http://localhost:8080/sso/redirect');
    expect([...target.searchParams.keys()]).toEqual(['handoff']);
    expect(target.href).not.toContain(response.slice(0, 40));
    const handoff = target.searchParams.get('handoff')!;
    const signedIn = await finishHandoff(handoff, request.cookie);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await me(signedIn.json().token)).json().email).toBe('wanda@globex.test');
    expect(await memberRow('wanda@globex.test')).toMatchObject({ organizationId: (await organizations.resolve('Globex')).id });
    // The code is spent.
    expect((await finishHandoff(handoff, request.cookie)).json().code).toBe('sso.state_invalid');
    expect((await finishHandoff('made-up', request.cookie)).json().code).toBe('sso.state_invalid');
  });

  it('hands the sign-in only to the browser that started it: a code redeemed elsewhere is refused and stays unused', async () => {
    const victim = await samlStart();
    const target = redirected(await post(saml.response({ requestId: victim.id, acsUrl, audience, nameId: 'globex-bound', email: 'bound@globex.test', name: 'Bound' })));
    const handoff = target.searchParams.get('handoff')!;
    // A browser with no started sign-in, or one that started its own, cannot take it.
    const noCookie = await finishHandoff(handoff);
    expect([noCookie.statusCode, noCookie.json().code]).toEqual([400, 'sso.state_invalid']);
    expect(noCookie.json().token).toBeUndefined();
    const attacker = await samlStart();
    expect((await finishHandoff(handoff, attacker.cookie)).json().code).toBe('sso.state_invalid');
    expect((await finishHandoff(handoff, 'v1:garbage:garbage')).json().code).toBe('sso.state_invalid');
    expect(await userByEmail('bound@globex.test')).toBeUndefined();
    // The browser that started it still can.
    const signedIn = await finishHandoff(handoff, victim.cookie);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await me(signedIn.json().token)).json().email).toBe('bound@globex.test');
  });

  it('refuses a replayed response', async () => {
    const request = await samlStart();
    const response = saml.response({ requestId: request.id, acsUrl, audience, nameId: 'globex-replay', email: 'replay@globex.test' });
    expect(redirected(await post(response)).searchParams.get('handoff')).toBeTruthy();
    expect(redirected(await post(response)).searchParams.get('error')).toBe('sso.response_invalid');
  });

  it('refuses tampered, unsigned, foreign-signed, expired, wrong-audience, wrong-recipient and unsolicited responses', async () => {
    const cases: Array<[string, (id: string) => string]> = [
      ['tampered', (id) => Buffer.from(Buffer.from(saml.response({ requestId: id, acsUrl, audience, nameId: 'victim', email: 'victim@globex.test' }), 'base64').toString().replace('victim@globex.test', 'hank@globex.test')).toString('base64')],
      ['unsigned', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 'u', email: 'unsigned@globex.test', signer: 'none' })],
      ['stranger', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 's', email: 'stranger@globex.test', signer: 'stranger' })],
      ['expired', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 'e', email: 'expired@globex.test', validMinutes: -5 })],
      ['audience', (id) => saml.response({ requestId: id, acsUrl, audience: 'https://someone-else.test/sp', nameId: 'a', email: 'audience@globex.test' })],
      ['recipient', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 'r', email: 'recipient@globex.test', recipient: 'https://evil.test/acs' })],
      ['unsolicited', () => saml.response({ requestId: '_never-asked', acsUrl, audience, nameId: 'n', email: 'unsolicited@globex.test' })],
      ['garbage', () => 'not base64 xml'],
    ];
    for (const [name, make] of cases) {
      const request = await samlStart();
      const target = redirected(await post(make(request.id)));
      expect(target.searchParams.get('error'), name).toBe('sso.response_invalid');
      expect(target.searchParams.get('handoff'), name).toBeNull();
    }
    for (const email of ['victim@globex.test', 'unsigned@globex.test', 'stranger@globex.test', 'expired@globex.test', 'audience@globex.test', 'recipient@globex.test', 'unsolicited@globex.test']) {
      expect(await userByEmail(email), email).toBeUndefined();
    }
    // Another organization's ACS does not take Globex's answer.
    const request = await samlStart();
    expect(redirected(await post(saml.response({ requestId: request.id, acsUrl, audience, nameId: 'x', email: 'x@globex.test' }), 'acme-corp')).searchParams.get('error')).toBe('sso.identifier_invalid');
  });
});

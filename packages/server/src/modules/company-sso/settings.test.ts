import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../test/dns-server';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer';
import { testOrganizations } from '../../../test/company-sso';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { samlIdp } from '../../../test/saml-idp';
import { companySsoConnections, organizationMembers, sessions, users } from '../../db/schema';
import type { OrganizationService } from '../organizations';
import { sha256 } from '../../platform/crypto';

/**
 * The organization's SSO settings screen's endpoints: owners and admins only, a recent proof of
 * identity to change the identity provider, require-SSO or a domain's proof, every bad input a
 * 400 naming its field (never a 500), and the OpenID Connect secret never answered.
 */
const SECRET = 'acme-settings-secret-0123456789';
const PASSWORD = 'plum-orbit-cactus-917';
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let organizations: OrganizationService;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let peer: SmtpPeer;
const dnsRecords = new Map<string, string[]>();
const saml = samlIdp();
let people = 0;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url: `/v3/sso/me/organization/sso${url}`, payload, headers: { authorization: `Bearer ${token}` } });

/** A fresh activated account, signed in: the mail goes to the real SMTP peer. */
async function person(label: string, domain = 'settings.test') {
  const email = `${label}-${++people}@${domain}`;
  await client.signUp(email, PASSWORD);
  const mail = await peer.waitFor((received) => received.to.includes(email) && /\/confirmation\/[\w-]+/.test(received.text));
  const token = /\/confirmation\/([\w-]+)/.exec(mail.text)![1]!;
  expect((await client.post('/v3/sso/users/activate', { token })).statusCode).toBeLessThan(300);
  const signedIn = await client.signIn(email, PASSWORD);
  return { email, token: signedIn.json().token as string };
}

/** An organization with an owner, an admin and a member (signed in). */
async function team(label: string) {
  const owner = await person(`${label}-owner`);
  await organizations.createNamed({ name: `Org ${label}`, adminEmail: owner.email });
  const admin = await person(`${label}-admin`);
  const member = await person(`${label}-member`);
  await organizations.addMemberTo(owner.email, admin.email);
  await organizations.addMemberTo(owner.email, member.email);
  await server.database.db.update(organizationMembers).set({ role: 'admin' }).where(eq(organizationMembers.email, admin.email));
  return { owner, admin, member };
}

/** The session's sign-in an hour ago: no recent proof of identity. */
async function staleSession(email: string) {
  const [user] = await server.database.db.select().from(users).where(eq(users.email, email));
  await server.database.db.update(sessions).set({ createdAt: sql`${sessions.createdAt} - interval '1 hour'` }).where(eq(sessions.userId, user!.id));
}

const oidc = (identifier: string, extra: Record<string, unknown> = {}) => ({ protocol: 'oidc', identifier, issuer: 'https://login.example.com/', client_id: 'portal', client_secret: SECRET, ...extra });
const fieldOf = (body: { details?: { fields?: Record<string, { code: string }> } }) => Object.entries(body.details?.fields ?? {}).map(([name, field]) => [name, field.code]);

beforeAll(async () => {
  dns = await startDnsServer(dnsRecords);
  peer = await startSmtpPeer();
  server = await startTestServer({ env: { COMPANY_SSO_DNS_SERVER: dns.server, SMTP_URL: peer.url } });
  client = identityClient(server.app, server.database);
  organizations = testOrganizations(server);
});
afterAll(async () => {
  await server.close();
  await dns.close();
  await peer.close();
});

describe('who sees the settings', () => {
  it('shows owners and admins the settings; members get 403, people in no organization 404', async () => {
    const { owner, admin, member } = await team('who');
    const seen = await call(owner.token, 'GET', '');
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ organization: { name: 'Org who' }, identifier: null, protocol: null, oidc: null, saml: null, require_sso: false, registration: null, domains: [] });
    expect((await call(admin.token, 'GET', '')).statusCode).toBe(200);
    const refused = await call(member.token, 'GET', '');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'organizations.forbidden']);
    for (const change of [
      () => call(member.token, 'PUT', '', oidc('who-member')),
      () => call(member.token, 'PUT', '/require', { require_sso: true }),
      () => call(member.token, 'POST', '/domains', { domain: 'who.test' }),
    ]) expect((await change()).json().code).toBe('organizations.forbidden');
    const outsider = await person('outsider', 'elsewhere.test');
    expect((await call(outsider.token, 'GET', '')).json().code).toBe('organizations.not_member');
  });
});

describe('the identity provider', () => {
  it('sets OpenID Connect with a write-only secret: stored sealed, never answered, kept when left out', async () => {
    const { owner, admin } = await team('oidc');
    const saved = await call(owner.token, 'PUT', '', oidc('Oidc-Team'));
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(SECRET);
    expect(saved.json()).toMatchObject({
      identifier: 'oidc-team',
      protocol: 'oidc',
      oidc: { issuer: 'https://login.example.com', client_id: 'portal', has_client_secret: true },
      registration: { oidc_redirect_uris: [expect.stringMatching(/\/sso\/redirect$/), expect.stringMatching(/\/sso\/redirect$/)], saml_acs_url: expect.stringMatching(/\/v3\/_auth\/sso\/saml\/oidc-team\/acs$/) },
    });
    const organizationId = saved.json().organization.id;
    const stored = async () => (await server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.organizationId, organizationId)))[0]!;
    const sealed = (await stored()).oidcClientSecret!;
    expect(sealed).not.toContain(SECRET);
    // An admin changes the client id and leaves the secret out: the stored one stays.
    const kept = await call(admin.token, 'PUT', '', oidc('oidc-team', { client_id: 'portal-2', client_secret: undefined }));
    expect(kept.json().oidc).toEqual({ issuer: 'https://login.example.com', client_id: 'portal-2', has_client_secret: true });
    expect((await stored()).oidcClientSecret).toBe(sealed);
    expect((await call(owner.token, 'GET', '')).body).not.toContain(SECRET);
  });

  it('answers each bad input as a 400 naming its field, never a 500', async () => {
    const { owner } = await team('bad');
    const cases: Array<[object, string, string]> = [
      [oidc('-bad'), 'identifier', 'sso.identifier_format'],
      [oidc('a'.repeat(64)), 'identifier', 'sso.identifier_format'],
      [oidc('bad-team', { issuer: 'not a url' }), 'issuer', 'sso.issuer_invalid'],
      [oidc('bad-team', { issuer: 'http://login.example.com' }), 'issuer', 'sso.issuer_invalid'],
      [oidc('bad-team', { issuer: 'https://user:pw@login.example.com' }), 'issuer', 'sso.issuer_invalid'],
      [oidc('bad-team', { issuer: 'https://login.example.com/?a=b' }), 'issuer', 'sso.issuer_invalid'],
      [oidc('bad-team', { client_id: '  ' }), 'client_id', 'sso.client_id_required'],
      // No secret stored yet: one is required.
      [oidc('bad-team', { client_secret: undefined }), 'client_secret', 'sso.client_secret_required'],
      [oidc('bad-team', { client_secret: 'short' }), 'client_secret', 'sso.client_secret_required'],
      [{ protocol: 'saml', identifier: 'bad-team', metadata_xml: '<not xml' }, 'metadata_xml', 'sso.metadata_invalid'],
      [{ protocol: 'saml', identifier: 'bad-team', metadata_xml: '' }, 'metadata_xml', 'sso.metadata_invalid'],
      [{ protocol: 'saml', identifier: 'bad-team', metadata_xml: '<!DOCTYPE x [<!ENTITY e "x">]><x>&e;</x>' }, 'metadata_xml', 'sso.metadata_invalid'],
      [{ protocol: 'saml', identifier: 'bad-team', metadata_xml: saml.metadata.replace(/<ds:X509Certificate>[^<]+/g, '<ds:X509Certificate>AAAA') }, 'metadata_xml', 'sso.metadata_invalid'],
    ];
    for (const [body, field, code] of cases) {
      const refused = await call(owner.token, 'PUT', '', body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(fieldOf(refused.json())).toEqual([[field, code]]);
    }
    expect((await call(owner.token, 'PUT', '', { protocol: 'ldap', identifier: 'x' })).statusCode).toBe(400);
    expect((await call(owner.token, 'GET', '')).json().protocol).toBeNull();
  });

  it('sets SAML 2.0 from the IdP metadata; an identifier another organization has is 409', async () => {
    const { owner } = await team('saml');
    const saved = await call(owner.token, 'PUT', '', { protocol: 'saml', identifier: 'saml-team', metadata_xml: saml.metadata });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ protocol: 'saml', oidc: null, saml: { entity_id: 'https://idp.acme.test/saml', sso_url: 'https://idp.acme.test/sso', certificates: 1 } });
    const other = await team('saml-other');
    const taken = await call(other.owner.token, 'PUT', '', oidc('SAML-team'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'sso.identifier_taken', message: 'The SSO identifier saml-team is taken' });
  });

  it('asks for a recent proof of identity to change the provider or require SSO', async () => {
    const { owner } = await team('stale');
    expect((await call(owner.token, 'PUT', '/require', { require_sso: true })).json().code).toBe('sso.not_configured');
    expect((await call(owner.token, 'PUT', '', oidc('stale-team'))).statusCode).toBe(200);
    await staleSession(owner.email);
    expect((await call(owner.token, 'GET', '')).statusCode).toBe(200);
    for (const change of [() => call(owner.token, 'PUT', '', oidc('stale-other')), () => call(owner.token, 'PUT', '/require', { require_sso: true })]) {
      const refused = await change();
      expect([refused.statusCode, refused.json().code]).toEqual([403, 'auth.reauth_required']);
    }
    const fresh = await client.signIn(owner.email, PASSWORD);
    // Recent enough now, but a password session: requiring SSO asks for a sign-in through the IdP (require-sso-sessions.attack.test.ts).
    const required = await call(fresh.json().token, 'PUT', '/require', { require_sso: true });
    expect([required.statusCode, required.json().code]).toEqual([409, 'sso.sign_in_first']);
    expect((await call(fresh.json().token, 'GET', '')).json()).toMatchObject({ identifier: 'stale-team', require_sso: false });
  });
});

describe('domains', () => {
  it('adds a domain with its TXT record, verifies it once published, refuses another organization, removes it', async () => {
    const { owner, admin } = await team('domains');
    expect(fieldOf((await call(owner.token, 'POST', '/domains', { domain: 'not a domain' })).json())).toEqual([['domain', 'sso.domain_invalid']]);
    const added = await call(owner.token, 'POST', '/domains', { domain: 'Domains.Test.' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ domain: 'domains.test', verified: false, verified_at: null, txt_record: expect.stringMatching(/^portal-verification=[\w-]{20,}$/) });
    // Adding again keeps the token.
    expect((await call(admin.token, 'POST', '/domains', { domain: 'domains.test' })).json().txt_record).toBe(added.json().txt_record);
    const missing = await call(owner.token, 'POST', '/domains/domains.test/verify');
    expect([missing.statusCode, missing.json().code]).toEqual([409, 'sso.domain_record_missing']);
    dnsRecords.set('domains.test', ['v=spf1 -all', added.json().txt_record]);
    const verified = await call(admin.token, 'POST', '/domains/domains.test/verify');
    expect(verified.json()).toMatchObject({ domain: 'domains.test', verified: true, verified_by: 'dns' });
    expect((await call(owner.token, 'GET', '')).json().domains).toEqual([verified.json()]);

    const other = await team('domains-other');
    const claim = (await call(other.owner.token, 'POST', '/domains', { domain: 'domains.test' })).json();
    dnsRecords.set('domains.test', [added.json().txt_record, claim.txt_record]);
    const taken = await call(other.owner.token, 'POST', '/domains/domains.test/verify');
    expect([taken.statusCode, taken.json().message]).toEqual([409, 'domains.test is verified by another organization']);
    expect((await call(other.owner.token, 'POST', '/domains/unclaimed.test/verify')).json().code).toBe('sso.domain_not_found');

    expect((await call(owner.token, 'DELETE', '/domains/domains.test')).statusCode).toBe(204);
    expect((await call(owner.token, 'DELETE', '/domains/domains.test')).json().code).toBe('sso.domain_not_found');
    // Free again: the other organization verifies it now.
    expect((await call(other.owner.token, 'POST', '/domains/domains.test/verify')).json().verified).toBe(true);
  });

  it('refuses free-mail domains and public suffixes with a field error, whatever the proof offered', async () => {
    const { owner } = await team('free');
    for (const [domain, code] of [
      ['gmail.com', 'sso.domain_free_mail'],
      ['Mail.Yahoo.com', 'sso.domain_free_mail'],
      ['outlook.com', 'sso.domain_free_mail'],
      ['co.uk', 'sso.domain_public_suffix'],
      ['github.io', 'sso.domain_public_suffix'],
      ['com', 'sso.domain_invalid'],
    ] as const) {
      const refused = await call(owner.token, 'POST', '/domains', { domain });
      expect([refused.statusCode, ...fieldOf(refused.json())], domain).toEqual([400, ['domain', code]]);
    }
    expect((await call(owner.token, 'POST', '/domains', { domain: 'gmail.com' })).json().details.fields.domain.message).toMatch(/gmail\.com is a free email domain/);
    // Nor proved by mail to the attacker's own mailbox there, or by DNS.
    expect(fieldOf((await call(owner.token, 'POST', '/domains/gmail.com/mail-proof', { address: 'free-attacker@gmail.com' })).json())).toEqual([['domain', 'sso.domain_free_mail']]);
    expect(fieldOf((await call(owner.token, 'POST', '/domains/gmail.com/verify')).json())).toEqual([['domain', 'sso.domain_free_mail']]);
    expect((await call(owner.token, 'GET', '')).json().domains).toEqual([]);
    // A company's own domain under a public suffix is fine.
    expect((await call(owner.token, 'POST', '/domains', { domain: 'free-team.co.uk' })).statusCode).toBe(201);
  });

  it('verifying a domain needs a recent proof of identity', async () => {
    const { owner } = await team('domains-stale');
    await call(owner.token, 'POST', '/domains', { domain: 'stale.test' });
    await staleSession(owner.email);
    expect((await call(owner.token, 'POST', '/domains/stale.test/verify')).json().code).toBe('auth.reauth_required');
  });
});

describe('the mailed domain proof', () => {
  const proofCode = async (to: string, after: number) => {
    const mail = await peer.waitFor((received) => received.to.includes(to) && peer.messages.indexOf(received) >= after);
    return /\b(\d{6})\b/.exec(mail.text)![1]!;
  };

  it('mails a code to a role mailbox of the domain; the code verifies it once', async () => {
    const { owner, admin } = await team('mailed');
    await call(owner.token, 'POST', '/domains', { domain: 'mailed.test' });
    for (const address of ['ceo@mailed.test', 'admin@elsewhere.test', owner.email]) {
      const refused = await call(owner.token, 'POST', '/domains/mailed.test/mail-proof', { address });
      expect(fieldOf(refused.json()), address).toEqual([['address', 'sso.proof_address_invalid']]);
    }
    expect((await call(owner.token, 'POST', '/domains/unclaimed.test/mail-proof', { address: 'admin@unclaimed.test' })).json().code).toBe('sso.domain_not_found');
    const before = peer.messages.length;
    const sent = await call(admin.token, 'POST', '/domains/mailed.test/mail-proof', { address: 'Hostmaster@Mailed.test' });
    expect(sent.json()).toMatchObject({ address: 'hostmaster@mailed.test', expires_at: expect.stringMatching(/^\d{4}-/) });
    const code = await proofCode('hostmaster@mailed.test', before);
    expect(sent.body).not.toContain(code);
    const mail = peer.messages.find((received) => received.to.includes('hostmaster@mailed.test'))!;
    expect(mail.subject).toBe('Verify mailed.test for Org mailed on CyStack ID');
    // The owner did not ask: the admin's code is the admin's.
    expect((await call(owner.token, 'POST', '/domains/mailed.test/mail-proof/confirm', { code })).json().details.fields.code.code).toBe('auth.code_invalid');
    const wrong = await call(admin.token, 'POST', '/domains/mailed.test/mail-proof/confirm', { code: code === '000000' ? '111111' : '000000' });
    expect(fieldOf(wrong.json())).toEqual([['code', 'auth.code_invalid']]);
    const verified = await call(admin.token, 'POST', '/domains/mailed.test/mail-proof/confirm', { code });
    expect(verified.json()).toMatchObject({ domain: 'mailed.test', verified: true, verified_by: 'mail' });
    expect((await call(admin.token, 'POST', '/domains/mailed.test/mail-proof/confirm', { code })).json().code).toBe('sso.domain_verified_already');
  });

  it("never mails the proof to the requester's own address, even at the domain; administrator@ is a role mailbox too", async () => {
    const { owner } = await team('own');
    await call(owner.token, 'POST', '/domains', { domain: 'settings.test' });
    const before = peer.messages.length;
    const refused = await call(owner.token, 'POST', '/domains/settings.test/mail-proof', { address: owner.email });
    expect(fieldOf(refused.json())).toEqual([['address', 'sso.proof_address_invalid']]);
    expect((await call(owner.token, 'POST', '/domains/settings.test/mail-proof', { address: 'administrator@settings.test' })).statusCode).toBe(200);
    const code = await proofCode('administrator@settings.test', before);
    expect(peer.messages.slice(before).some((received) => received.to.includes(owner.email))).toBe(false);
    const verified = await call(owner.token, 'POST', '/domains/settings.test/mail-proof/confirm', { code });
    expect(verified.json().verified_by).toBe('mail');
  });

  it('kills a code after 5 guesses, however many arrive at once', async () => {
    const { owner } = await team('guesses');
    await call(owner.token, 'POST', '/domains', { domain: 'guesses.test' });
    const before = peer.messages.length;
    await call(owner.token, 'POST', '/domains/guesses.test/mail-proof', { address: 'webmaster@guesses.test' });
    const code = await proofCode('webmaster@guesses.test', before);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const guesses = await Promise.all(Array.from({ length: 8 }, () => call(owner.token, 'POST', '/domains/guesses.test/mail-proof/confirm', { code: wrongCode })));
    expect(guesses.every((guess) => guess.statusCode === 400 || guess.statusCode === 429)).toBe(true);
    const late = await call(owner.token, 'POST', '/domains/guesses.test/mail-proof/confirm', { code });
    expect([400, 429]).toContain(late.statusCode);
    expect((await call(owner.token, 'GET', '')).json().domains[0].verified).toBe(false);
  });

  it('counts the mails per organization in one atomic step (10 an hour), parallel requests included', async () => {
    const { owner } = await team('flood');
    await call(owner.token, 'POST', '/domains', { domain: 'flood.test' });
    const sent = await Promise.all(Array.from({ length: 13 }, () => call(owner.token, 'POST', '/domains/flood.test/mail-proof', { address: 'postmaster@flood.test' })));
    const statuses = sent.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
  });
});

describe('the audit log', () => {
  it("records every change of the SSO settings in the organization's audit log, with who made it", async () => {
    const { owner, admin } = await team('audited');
    expect((await call(owner.token, 'PUT', '', oidc('audited-team'))).statusCode).toBe(200);
    expect((await call(admin.token, 'PUT', '', { protocol: 'saml', identifier: 'audited-team', metadata_xml: saml.metadata })).statusCode).toBe(200);
    // No change, no entry.
    expect((await call(owner.token, 'PUT', '/require', { require_sso: false })).statusCode).toBe(200);
    const added = await call(admin.token, 'POST', '/domains', { domain: 'audited.test' });
    expect((await call(admin.token, 'POST', '/domains', { domain: 'audited.test' })).statusCode).toBe(201);
    dnsRecords.set('audited.test', [added.json().txt_record]);
    expect((await call(owner.token, 'POST', '/domains/audited.test/verify')).json().verified).toBe(true);
    expect((await call(owner.token, 'POST', '/domains/audited.test/verify')).statusCode).toBe(200);
    expect((await call(owner.token, 'DELETE', '/domains/audited.test')).statusCode).toBe(204);
    // A refused change records nothing.
    expect((await call(owner.token, 'PUT', '', oidc('-bad'))).statusCode).toBe(400);
    const organizationId = (await call(owner.token, 'GET', '')).json().organization.id;
    // Last, requiring SSO, which asks for a session the IdP signed in since the owner joined: this test has no IdP, so the
    // owner's session is marked as one. The admin's password session ends (require-sso-sessions.attack.test.ts signs in through an IdP).
    await server.database.db.update(sessions).set({ amr: ['sso'], createdAt: new Date() }).where(eq(sessions.tokenHash, sha256(owner.token)));
    expect((await call(owner.token, 'PUT', '/require', { require_sso: true })).statusCode).toBe(200);
    expect((await call(admin.token, 'GET', '')).statusCode).toBe(401);
    const reader = owner.token;

    const log = await server.app.inject({ method: 'GET', url: `/v3/organizations/${organizationId}/audit-events?action=sso_provider_set,sso_provider_changed,sso_required_changed,sso_domain_added,sso_domain_verified,sso_domain_removed`, headers: { authorization: `Bearer ${reader}` } });
    expect(log.statusCode).toBe(200);
    const entries = (log.json().items as Array<{ action: string; actor_email: string; detail: Record<string, unknown> }>).reverse();
    expect(entries.map((entry) => [entry.action, entry.actor_email, entry.detail])).toEqual([
      ['sso_provider_set', owner.email, { protocol: 'oidc', identifier: 'audited-team' }],
      ['sso_provider_changed', admin.email, { protocol: 'saml', identifier: 'audited-team', previous_protocol: 'oidc', previous_identifier: 'audited-team' }],
      ['sso_domain_added', admin.email, { domain: 'audited.test' }],
      ['sso_domain_verified', owner.email, { domain: 'audited.test', method: 'dns' }],
      ['sso_domain_removed', owner.email, { domain: 'audited.test' }],
      ['sso_required_changed', owner.email, { require_sso: true }],
    ]);
    expect(log.body).not.toContain(SECRET);
    expect(entries.every((entry) => (entry as unknown as { ip: string | null }).ip)).toBe(true);
  });
});

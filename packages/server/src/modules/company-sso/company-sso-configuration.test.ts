import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CLIENT, companySsoOrganizations, refusal } from '../../../test/company-sso-organizations';
import { companySsoConnections } from '../../db/schema';
import { limits } from '../../platform/rate-limit';
import { TXT_PREFIX } from '.';

/**
 * Company SSO's configuration as the operators' commands make it: identifiers, sealed client
 * secrets, checked OIDC settings and SAML metadata, domains verified by DNS TXT (a tiny UDP DNS
 * server the test starts), and how /v3/_auth/sso/start finds an organization's IdP.
 */
const { h, saml } = companySsoOrganizations('127.14');
const { dnsRecords, nextAddress, start } = h;

describe('configuration (operator commands)', () => {
  it('keeps the identifier unique and case-insensitive, of letters, digits and dashes', async () => {
    const [row] = await h.server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, 'acme-corp'));
    expect(row?.kind).toBe('oidc');
    for (const bad of ['', 'has space', '-dash', 'dash-', 'a_b', 'x'.repeat(64), 'é']) {
      expect(await refusal(h.admin.configureOidc({ organization: 'Globex', identifier: bad, issuer: h.idp.issuer, clientId: 'x', clientSecret: 'y'.repeat(10) })), bad).toMatch(/--identifier must be/);
    }
    expect(await refusal(h.admin.configureSaml({ organization: 'Globex', identifier: 'ACME-corp', metadataXml: saml.metadata }))).toBe('the SSO identifier acme-corp is taken');
    // The refused change left Globex's SAML connection as it was.
    expect((await start('globex')).json().protocol).toBe('saml');
  });

  it('stores the client secret sealed, never in an answer', async () => {
    const [row] = await h.server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, 'acme-corp'));
    expect(row!.oidcClientSecret).toMatch(/^v1:/);
    expect(row!.oidcClientSecret).not.toContain(CLIENT.clientSecret);
    const started = await start('acme-corp');
    expect(started.body).not.toContain(CLIENT.clientSecret);
    expect(started.json().url).not.toContain(CLIENT.clientSecret);
  });

  it('checks the OIDC settings and the SAML metadata', async () => {
    const oidc = (issuer: string, clientSecret = 'long-enough-secret') => refusal(h.admin.configureOidc({ organization: 'Acme', identifier: 'acme-corp', issuer, clientId: 'c', clientSecret }));
    expect(await oidc('http://idp.example.com')).toMatch(/https/);
    expect(await oidc('not a url')).toMatch(/absolute https URL/);
    expect(await oidc('https://idp.example.com', 'short')).toMatch(/client secret is required/);
    expect(await refusal(h.admin.configureOidc({ organization: 'Nobody Inc', identifier: 'x', issuer: h.idp.issuer, clientId: 'c', clientSecret: 'long-enough-secret' }))).toBe('no organization is named Nobody Inc');
    const metadata = (xml: string) => refusal(h.admin.configureSaml({ organization: 'Globex', identifier: 'globex', metadataXml: xml }));
    expect(await metadata('<nope')).toMatch(/not well-formed/);
    expect(await metadata(saml.metadata.replace(/<ds:X509Certificate>[^<]+/, '<ds:X509Certificate>AAAA'))).toMatch(/not a valid X.509/);
    expect(await metadata(saml.metadata.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''))).toMatch(/no signing certificate/);
    expect(await metadata(saml.metadata.replace('HTTP-Redirect', 'SOAP'))).toMatch(/HTTP-Redirect/);
    expect(await metadata('<!DOCTYPE x [<!ENTITY e "e">]><x/>')).toMatch(/DOCTYPE/);
    const [row] = await h.server.database.db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, 'globex'));
    expect(row).toMatchObject({ kind: 'saml', samlEntityId: saml.entityId, samlSsoUrl: saml.ssoUrl });
    expect(row!.samlCertificates).toHaveLength(1);
    expect(h.admin.registrationUrls('globex')).toEqual({
      oidcRedirectUris: ['http://localhost:8080/sso/redirect', 'http://locker.localhost:8080/sso/redirect'],
      entityId: 'http://localhost:8080/v3/_auth/sso/saml/globex',
      acsUrl: 'http://localhost:8080/v3/_auth/sso/saml/globex/acs',
    });
  });
});

describe('domain verification by DNS TXT', () => {
  it('verifies only with the published token, asking the configured DNS server', async () => {
    await h.organizations.createNamed({ name: 'Initech', adminEmail: 'peter@initech.test' });
    const added = await h.admin.addDomain({ organization: 'Initech', domain: 'Initech.TEST.' });
    expect(added.domain.domain).toBe('initech.test');
    expect(added.record).toMatch(new RegExp(`^${TXT_PREFIX}[\\w-]{20,}$`));
    // Claiming again keeps the token.
    expect((await h.admin.addDomain({ organization: 'Initech', domain: 'initech.test' })).record).toBe(added.record);
    const before = h.dns.queries;
    expect(await refusal(h.admin.verifyDomain({ organization: 'Initech', domain: 'initech.test' }))).toMatch(/no TXT record portal-verification=/);
    dnsRecords.set('initech.test', [`${TXT_PREFIX}someone-elses-token`]);
    expect(await refusal(h.admin.verifyDomain({ organization: 'Initech', domain: 'initech.test' }))).toMatch(/no TXT record/);
    expect(h.dns.queries).toBeGreaterThan(before);
    dnsRecords.set('initech.test', [added.record]);
    const verified = await h.admin.verifyDomain({ organization: 'Initech', domain: 'initech.test' });
    expect(verified.domain.verifiedAt).toBeInstanceOf(Date);
    expect(await refusal(h.admin.verifyDomain({ organization: 'Initech', domain: 'unclaimed.test' }))).toMatch(/has not claimed/);
    expect(await refusal(h.admin.addDomain({ organization: 'Initech', domain: 'not a domain' }))).toMatch(/DNS name/);
  });

  it('lets one organization only verify a domain', async () => {
    // Initech claims Acme's verified domain and even publishes its own token: refused.
    const added = await h.admin.addDomain({ organization: 'Initech', domain: 'acme.test' });
    dnsRecords.set('acme.test', [...(dnsRecords.get('acme.test') ?? []), added.record]);
    expect(await refusal(h.admin.verifyDomain({ organization: 'Initech', domain: 'acme.test' }))).toBe('acme.test is verified by another organization');
    // Its claim on the domain leads nowhere: the email still goes to Acme's IdP.
    expect((await start('someone@acme.test')).json().url).toContain(h.idp.issuer);
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
    const wrongType = await h.server.app.inject({ method: 'POST', url: '/v3/_auth/sso/start', payload: { identifier: 42 }, remoteAddress: nextAddress() });
    expect(wrongType.statusCode).toBe(400);
  });

  it('finds the IdP by identifier (any case) or by an email of a verified domain', async () => {
    for (const identifier of ['ACME-CORP', ' acme-corp ', 'Jane@Acme.test']) {
      const response = await start(identifier);
      expect(response.statusCode, identifier).toBe(200);
      expect(new URL(response.json().url).origin).toBe(h.idp.issuer);
    }
  });

  it('counts starts per address in one atomic step, found or not', async () => {
    const address = '127.12.0.1';
    const answers = await Promise.all(Array.from({ length: limits.companySsoStartPerIp.limit + 6 }, (_, index) => start(index % 2 ? 'acme-corp' : 'nobody', address)));
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(6);
    expect((await start('acme-corp', '127.12.0.2')).statusCode).toBe(200);
  });
});

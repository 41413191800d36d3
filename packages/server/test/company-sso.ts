import { afterAll, beforeAll, expect } from 'vitest';
import { createCompanySsoService, type CompanySsoService } from '../src/modules/company-sso';
import { createOrganizationService, type OrganizationService } from '../src/modules/organizations';
import { createDataProtection, parseDataKey } from '../src/platform/data-protection';
import { createRateLimiter } from '../src/platform/rate-limit';
import { TestBrowser } from './browser';
import { startDnsServer } from './dns-server';
import { startOidcIdp, type IdpPerson } from './fake-idps';
import { startTestServer, TEST_DATA_KEY, type TestServer } from './harness';
import { identityClient } from './identity';

export const REDIRECT = 'http://localhost:8080/sso/redirect';

/** The organizations service a test uses to make organizations and members (as the CLI does). */
export const testOrganizations = (server: TestServer): OrganizationService => createOrganizationService({ db: server.database.db, clock: { now: () => new Date() } });

/** Company SSO as the operators' command runs it on the test server's database: configuration only, it signs nobody in. */
export function operatorCompanySso(server: TestServer, organizations: OrganizationService): CompanySsoService {
  return createCompanySsoService({
    config: server.config,
    db: server.database.db,
    clock: { now: () => new Date() },
    limiter: createRateLimiter(),
    secrets: createDataProtection(parseDataKey(TEST_DATA_KEY)!),
    organizations,
    log: { warn: () => undefined },
    signIn: { run: () => Promise.reject(new Error('not here')) },
  });
}

/**
 * A test server with an organization's OpenID Connect IdP (a real oidc-provider) and a DNS
 * server for domain proofs, the operators' company SSO and organizations services, and an
 * OIDC sign-in walked as a browser would. Starts before the file's tests and closes after them.
 * `addresses` is the first two octets of the callers' addresses (a file's own, so per-IP limits
 * of one file never meet another's).
 */
export function companySsoTestServer(options: { clientId: string; clientSecret: string; redirectUris?: string[]; addresses: string; env?: Record<string, string> }) {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startOidcIdp>>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let organizations: OrganizationService;
  let admin: CompanySsoService;
  const dnsRecords = new Map<string, string[]>();
  /** What the file's beforeAll makes, there from its first test on (the answer below is this object). */
  const started = {} as { server: TestServer; client: ReturnType<typeof identityClient>; idp: typeof idp; dns: typeof dns; organizations: OrganizationService; admin: CompanySsoService };

  beforeAll(async () => {
    idp = await startOidcIdp({ clientId: options.clientId, clientSecret: options.clientSecret, redirectUris: options.redirectUris ?? [REDIRECT] });
    dns = await startDnsServer(dnsRecords);
    server = await startTestServer({ env: { COMPANY_SSO_DNS_SERVER: dns.server, ...options.env } });
    organizations = testOrganizations(server);
    admin = operatorCompanySso(server, organizations);
    Object.assign(started, { server, client: identityClient(server.app, server.database), idp, dns, organizations, admin });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([idp?.close(), dns?.close()]);
  });

  let visitors = 0;
  /** Each caller from its own address. */
  const nextAddress = () => `${options.addresses}.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;
  const start = (identifier: string, remoteAddress = nextAddress()) => server.app.inject({ method: 'POST', url: '/v3/_auth/sso/start', payload: { identifier }, remoteAddress });

  /**
   * Start, walk the IdP's pages as a browser would up to /sso/redirect, and finish there.
   * `state` and `cookie` (null: none) replace what the browser would send.
   */
  async function oidcSignIn(person: IdpPerson, identifier: string, forged: { state?: string; cookie?: string | null } = {}) {
    idp.signInAs(person);
    const started = await start(identifier);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().protocol).toBe('oidc');
    const cookie = started.cookies.find((item) => item.name === 'portal_sso');
    expect(cookie?.httpOnly).toBe(true);
    const url = new URL(started.json().url as string);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const walked = await new TestBrowser(url.origin).walk(url.href);
    expect(walked.url.origin + walked.url.pathname).toBe(REDIRECT);
    const params = walked.url.searchParams;
    const sealed = forged.cookie === null ? undefined : (forged.cookie ?? cookie!.value);
    return server.app.inject({
      method: 'POST',
      url: '/v3/_auth/sso/finish',
      payload: { code: params.get('code'), state: forged.state ?? params.get('state'), ...(params.get('iss') ? { iss: params.get('iss') } : {}) },
      cookies: sealed ? { portal_sso: sealed } : {},
      remoteAddress: nextAddress(),
    });
  }

  /** Claims a domain for an organization and verifies it through the test's DNS server. */
  async function verifiedDomain(organization: string, domain: string) {
    const added = await admin.addDomain({ organization, domain });
    dnsRecords.set(domain, ['v=spf1 -all', added.record]);
    await admin.verifyDomain({ organization, domain });
  }

  return Object.assign(started, {
    dnsRecords,
    nextAddress,
    start,
    oidcSignIn,

    /** An organization whose OIDC connection is this IdP, with a domain it verified through the test's DNS server. */
    async organizationWithIdp(name: string, identifier: string, domain: string) {
      await organizations.createNamed({ name, adminEmail: `boss@${domain}` });
      await admin.configureOidc({ organization: name, identifier, issuer: idp.issuer, clientId: options.clientId, clientSecret: options.clientSecret });
      await verifiedDomain(name, domain);
    },

    verifiedDomain,
  });
}

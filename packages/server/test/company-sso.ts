import { afterAll, beforeAll, expect } from 'vitest';
import { operatorOrganizationServices } from '../src/cli/organizations-tool';
import type { CompanySsoService } from '../src/modules/company-sso';
import { createOrganizationService, type OrganizationService } from '../src/modules/organizations';
import { TestBrowser } from './browser';
import { startDnsServer } from './dns-server';
import { startOidcIdp, type IdpPerson } from './fake-idps';
import { startProviderTestServer, startTestServer, type TestServer } from './harness';
import { CLIENTS_FILE, PRODUCT_SECRET } from './relying-party';
import { identityClient } from './identity';

export const REDIRECT = 'http://localhost:8080/sso/redirect';

/** The organizations service a test uses to make organizations and members (as the CLI does). */
export const testOrganizations = (server: TestServer): OrganizationService => createOrganizationService({ db: server.database.db, clock: { now: () => new Date() } });

/**
 * Organizations and company SSO as the operators' commands make them (cli/organizations-tool.ts)
 * on the test server's database: it signs nobody in, and a member it adds or SSO it requires ends
 * sessions as the commands do. Closed after use.
 */
export const operatorServices = (server: TestServer) => operatorOrganizationServices(server.config, server.database.db, { now: () => new Date() });

/**
 * A session the operators' command ended is refused by the test server within moments. The
 * command ends sessions on a node of its own: the server's copy of who is signed in forgets them
 * when the database's notification arrives, a moment after the command answers on PostgreSQL.
 * `status` asks the server (GET /v3/sso/me with the session, its status code).
 */
export const refusedSoon = (status: () => Promise<number>, message?: string) => expect.poll(status, { message, timeout: 5000 }).toBe(401);

/**
 * A test server with an organization's OpenID Connect IdP (a real oidc-provider) and a DNS
 * server for domain proofs, the operators' company SSO and organizations services, and an
 * OIDC sign-in walked as a browser would. Starts before the file's tests and closes after them.
 * `addresses` is the first two octets of the callers' addresses (a file's own, so per-IP limits
 * of one file never meet another's).
 */
export function companySsoTestServer(options: { clientId: string; clientSecret: string; redirectUris?: string[]; addresses: string; env?: Record<string, string>; provider?: boolean }) {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startOidcIdp>>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let operator: ReturnType<typeof operatorServices>;
  const dnsRecords = new Map<string, string[]>();
  /** What the file's beforeAll makes, there from its first test on (the answer below is this object). */
  const started = {} as { server: TestServer; client: ReturnType<typeof identityClient>; idp: typeof idp; dns: typeof dns; organizations: OrganizationService; admin: CompanySsoService };

  /** Where the IdP sends the browser back: the portal's /sso/redirect. */
  let redirect = REDIRECT;

  beforeAll(async () => {
    dns = await startDnsServer(dnsRecords);
    const env = { COMPANY_SSO_DNS_SERVER: dns.server, ...options.env };
    if (options.provider) {
      // The OpenID provider of the test products too, listening where its issuer says (relying-party.ts).
      server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: { 'test-product': PRODUCT_SECRET }, env });
      redirect = `${server.url}/sso/redirect`;
    } else server = await startTestServer({ env });
    idp = await startOidcIdp({ clientId: options.clientId, clientSecret: options.clientSecret, redirectUris: options.redirectUris ?? [redirect] });
    operator = operatorServices(server);
    Object.assign(started, { server, client: identityClient(server.app, server.database), idp, dns, organizations: operator.organizations, admin: operator.companySso });
  });
  afterAll(async () => {
    await operator?.close();
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
    expect(walked.url.origin + walked.url.pathname).toBe(redirect);
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
    const added = await operator.companySso.addDomain({ organization, domain });
    dnsRecords.set(domain, ['v=spf1 -all', added.record]);
    await operator.companySso.verifyDomain({ organization, domain });
  }

  return Object.assign(started, {
    dnsRecords,
    nextAddress,
    start,
    oidcSignIn,

    /** An organization whose OIDC connection is this IdP, with a domain it verified through the test's DNS server. */
    async organizationWithIdp(name: string, identifier: string, domain: string) {
      await operator.organizations.createNamed({ name, adminEmail: `boss@${domain}` });
      await operator.companySso.configureOidc({ organization: name, identifier, issuer: idp.issuer, clientId: options.clientId, clientSecret: options.clientSecret });
      await verifiedDomain(name, domain);
    },

    verifiedDomain,
  });
}

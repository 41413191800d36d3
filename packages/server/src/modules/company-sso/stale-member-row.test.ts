import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { startDnsServer } from '../../../test/dns-server';
import { startOidcIdp, type IdpPerson } from '../../../test/fake-idps';
import { startTestServer, TEST_DATA_KEY, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { companySsoIdentities, organizationMembers, users } from '../../db/schema';
import { createDataProtection, parseDataKey } from '../../platform/data-protection';
import { createRateLimiter } from '../../platform/rate-limit';
import { createOrganizationService } from '../organizations';
import { createCompanySsoService } from '.';

/**
 * A membership row that names an account is that account's only. A row left under an address
 * its account gave up (an email change before rows followed their account) does not make the
 * next holder of that address a member: the organization's IdP naming that address meets an
 * existing non-member account, which is linked only when its owner confirms.
 */
const CLIENT = { clientId: 'stale-portal', clientSecret: 'stale-portal-secret-0123456789abcdef' };
const REDIRECT = 'http://localhost:8080/sso/redirect';
const PASSWORD = 'plum-orbit-cactus-917';
const ACTIVATION = /\/confirmation\/([\w-]+)/;

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let idp: Awaited<ReturnType<typeof startOidcIdp>>;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const dnsRecords = new Map<string, string[]>();
let visitors = 0;
const nextAddress = () => `127.12.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;

beforeAll(async () => {
  idp = await startOidcIdp({ ...CLIENT, redirectUris: [REDIRECT] });
  dns = await startDnsServer(dnsRecords);
  server = await startTestServer({ env: { COMPANY_SSO_DNS_SERVER: dns.server } });
  client = identityClient(server.app, server.database);
  const organizations = createOrganizationService({ db: server.database.db, clock: { now: () => new Date() } });
  const admin = createCompanySsoService({
    config: server.config,
    db: server.database.db,
    clock: { now: () => new Date() },
    limiter: createRateLimiter(),
    secrets: createDataProtection(parseDataKey(TEST_DATA_KEY)!),
    organizations,
    log: { warn: () => undefined },
    signIn: { run: () => Promise.reject(new Error('not here')) },
  });
  await organizations.createNamed({ name: 'Stale Inc', adminEmail: 'boss@stale.test' });
  await admin.configureOidc({ organization: 'Stale Inc', identifier: 'stale-inc', issuer: idp.issuer, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret });
  const added = await admin.addDomain({ organization: 'Stale Inc', domain: 'stale.test' });
  dnsRecords.set('stale.test', [added.record]);
  await admin.verifyDomain({ organization: 'Stale Inc', domain: 'stale.test' });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([idp?.close(), dns?.close()]);
});

async function oidcSignIn(person: IdpPerson) {
  idp.signInAs(person);
  const started = await server.app.inject({ method: 'POST', url: '/v3/_auth/sso/start', payload: { identifier: 'stale-inc' }, remoteAddress: nextAddress() });
  expect(started.statusCode, started.body).toBe(200);
  const cookie = started.cookies.find((item) => item.name === 'portal_sso')!;
  const url = new URL(started.json().url as string);
  const walked = await new TestBrowser(url.origin).walk(url.href);
  const params = walked.url.searchParams;
  return server.app.inject({
    method: 'POST',
    url: '/v3/_auth/sso/finish',
    payload: { code: params.get('code'), state: params.get('state'), ...(params.get('iss') ? { iss: params.get('iss') } : {}) },
    cookies: { portal_sso: cookie.value },
    remoteAddress: nextAddress(),
  });
}

describe("a member row left under an address its account gave up", () => {
  it('does not make the next holder of the address a member the IdP may sign in without their confirmation', async () => {
    const old = 'leaver@stale.test';
    await client.registeredUser(old, PASSWORD);
    const [, leaversLink = ''] = await client.mailTo(old, ACTIVATION);
    const [leaver] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, old));
    await server.database.db.insert(organizationMembers).values({ organizationId: (await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.email, 'boss@stale.test')))[0]!.organizationId, email: old, userId: leaver!.id, role: 'member' });
    // The leaver's email changed while the row stayed (as every change did before rows followed their account).
    await server.database.db.update(users).set({ email: 'leaver@elsewhere.test' }).where(eq(users.id, leaver!.id));

    await client.signUp(old, PASSWORD);
    expect((await client.activate(old, [leaversLink])).statusCode).toBe(200);
    const answer = await oidcSignIn({ sub: 'stale-next-holder', email: old, name: 'Next Holder' });
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json().code).toBe('sso.link_required');
    expect(await server.database.db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'stale-next-holder'))).toEqual([]);
  });
});

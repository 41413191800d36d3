import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { adminCall, codeOf, operator, type Method } from '../../../test/operators';
import { companySsoDomains, organizationMembers, organizations } from '../../db/schema';

const clock = manualClock();
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const who: Record<string, { session: string; id: string }> = {};
const acme = randomUUID();
const rival = randomUUID();

const call = (name: string | undefined, method: Method, url: string, payload?: object) => adminCall(server, name ? (who[name]?.session ?? name) : undefined, method, url, payload);
const verify = (name: string, organization: string, domain: string, reason = 'Called their IT desk and checked the registrar') =>
  call(name, 'POST', `/v3/admin/organizations/${organization}/domains/${domain}/verify`, { reason });

beforeAll(async () => {
  server = await startTestServer({ clock });
  client = identityClient(server.app, server.database);
  who.owner = await operator(server, client, 'owner@example.com', ['owner']);
  who.support = await operator(server, client, 'support@example.com', ['support']);
  who.finance = await operator(server, client, 'finance@example.com', ['finance']);
  who.nobody = await operator(server, client, 'nobody@example.com', []);
  const db = server.database.db;
  await db.insert(organizations).values([
    { id: acme, name: 'Acme Robotics', adminEmail: 'boss@acme.test' },
    { id: rival, name: 'Rival Labs', adminEmail: 'boss@rival.test' },
  ]);
  await db.insert(organizationMembers).values([
    { organizationId: acme, email: 'boss@acme.test', role: 'owner' },
    { organizationId: acme, email: 'dev@acme.test', role: 'member' },
    { organizationId: rival, email: 'boss@rival.test', role: 'owner' },
  ]);
  await db.insert(companySsoDomains).values([
    { organizationId: acme, domain: 'acme.test', dnsToken: 'secret-token-acme' },
    { organizationId: acme, domain: 'gmail.com', dnsToken: 'token-free' },
    { organizationId: acme, domain: 'shared.test', dnsToken: 'token-acme-shared' },
    { organizationId: rival, domain: 'shared.test', dnsToken: 'token-rival-shared', verifiedAt: new Date(), verifiedBy: 'dns' },
    { organizationId: rival, domain: 'rival.test', dnsToken: 'token-rival' },
  ]);
}, 60_000);
afterAll(() => server?.close());

describe('organizations in the console', () => {
  it('refuses anonymous callers, non-operators and finance', async () => {
    for (const [method, url, body] of [
      ['GET', '/v3/admin/organizations'],
      ['GET', `/v3/admin/organizations/${acme}`],
      ['POST', `/v3/admin/organizations/${acme}/domains/acme.test/verify`, { reason: 'Checked by phone' }],
    ] as Array<[Method, string, object?]>) {
      expect((await call(undefined, method, url, body)).statusCode, url).toBe(401);
      for (const name of ['nobody', 'finance']) {
        const refused = await call(name, method, url, body);
        expect([refused.statusCode, codeOf(refused)], `${name} ${url}`).toEqual([403, 'admin.forbidden']);
      }
    }
  });

  it('finds an organization by name, domain, member email or id, and shows its members, domains and SSO status without tokens', async () => {
    for (const q of ['acme', 'ACME rob', 'acme.test', 'dev@acme.test', acme]) {
      const found = await call('support', 'GET', `/v3/admin/organizations?q=${encodeURIComponent(q)}`);
      expect(found.json().organizations.map((row: { id: string }) => row.id), q).toEqual([acme]);
    }
    expect((await call('support', 'GET', '/v3/admin/organizations?q=%25')).json().organizations).toEqual([]);
    const page = await call('support', 'GET', `/v3/admin/organizations/${acme}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ name: 'Acme Robotics', members: 2, verified_domains: 0, sso: null, sso_connection: null });
    expect(page.json().member_list.map((member: { email: string }) => member.email).sort()).toEqual(['boss@acme.test', 'dev@acme.test']);
    expect(page.body).not.toContain('secret-token-acme');
    expect(codeOf(await call('support', 'GET', `/v3/admin/organizations/${randomUUID()}`))).toBe('admin.not_found');
    expect((await call('support', 'GET', '/v3/admin/organizations/not-an-id')).statusCode).toBe(400);
  });

  it('verifies a claimed domain by hand, with a reason; free mail, another organization’s verified domain and an unclaimed one are refused', async () => {
    expect((await verify('support', acme, 'acme.test', 'no')).statusCode).toBe(400);
    const done = await verify('support', acme, 'acme.test');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ domain: 'acme.test', verified_by: 'operator', verified_at: expect.any(String) });
    const free = await verify('owner', acme, 'gmail.com');
    expect([free.statusCode, codeOf(free)]).toEqual([400, 'sso.domain_free_mail']);
    const taken = await verify('owner', acme, 'shared.test');
    expect([taken.statusCode, codeOf(taken)]).toEqual([409, 'sso.domain_taken']);
    // Another organization's claim is not this one's to verify.
    const other = await verify('owner', acme, 'rival.test');
    expect([other.statusCode, codeOf(other)]).toEqual([404, 'sso.domain_not_found']);
    expect((await verify('owner', acme, 'bad_domain!')).statusCode).toBe(400);
    expect(codeOf(await verify('owner', randomUUID(), 'acme.test'))).toBe('admin.not_found');
    const page = (await call('support', 'GET', `/v3/admin/organizations/${acme}`)).json();
    expect(page.verified_domains).toBe(1);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness';
import { startOrganizationsTest } from '../../../test/organizations';
import type { IdentityClient } from '../../../test/server-with-client';
import { organizationMembers } from '../../db/schema';
import type { createOrganizationService } from './service';

/**
 * Rights come from current membership rows only: the organization's creator columns
 * (admin_email, admin_user_id) say who made it, never who may administer it. A creator another
 * owner removed reads no audit log, sees no SSO settings and claims no domain.
 */
let server: TestServer;
let client: IdentityClient;
let organizations: ReturnType<typeof createOrganizationService>;
let people = 0;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url: `/v3${url}`, payload, headers: { authorization: `Bearer ${token}` } });

async function person(label: string) {
  const email = `${label}-${++people}@creator.example`;
  return { email, token: await client.registeredUser(email) };
}

/** An organization its creator made, with a partner the creator made a second owner. */
async function organizationWithTwoOwners(name: string, label: string) {
  const creator = await person(label);
  const organization = await organizations.createNamed({ name, adminEmail: creator.email });
  const partner = await person(`${label}-partner`);
  await organizations.addMemberTo(name, partner.email);
  await organizations.setRoleOf(name, partner.email, 'owner');
  return { creator, organization, partner };
}

beforeAll(async () => {
  ({ server, client, organizations } = await startOrganizationsTest());
});
afterAll(() => server.close());

describe('a removed creator', () => {
  it('loses the audit log, the SSO settings and domain claims the moment another owner removes them', async () => {
    const { creator, organization, partner } = await organizationWithTwoOwners('Creator Co', 'creator');

    // While a member, the creator administers.
    expect((await call(creator.token, 'GET', `/organizations/${organization.id}/audit-events`)).statusCode).toBe(200);
    expect((await call(creator.token, 'GET', '/sso/me/organization/sso')).statusCode).toBe(200);

    expect((await call(partner.token, 'DELETE', `/sso/me/organization/members/${encodeURIComponent(creator.email)}`)).statusCode).toBe(204);
    expect(await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.email, creator.email))).toEqual([]);

    const audit = await call(creator.token, 'GET', `/organizations/${organization.id}/audit-events`);
    expect([audit.statusCode, audit.json().code]).toEqual([403, 'audit.not_admin']);
    expect((await call(creator.token, 'GET', `/organizations/${organization.id}/audit-events.csv`)).statusCode).toBe(403);
    expect((await call(creator.token, 'GET', '/organizations/administered')).json().items).toEqual([]);
    const settings = await call(creator.token, 'GET', '/sso/me/organization/sso');
    expect([settings.statusCode, settings.json().code]).toEqual([404, 'organizations.not_member']);
    expect((await call(creator.token, 'PUT', '/sso/me/organization/sso/require', { require_sso: true })).json().code).toBe('organizations.not_member');
    expect((await call(creator.token, 'POST', '/sso/me/organization/sso/domains', { domain: 'creator-co.example' })).json().code).toBe('organizations.not_member');
    // The remaining owner still administers.
    expect((await call(partner.token, 'GET', `/organizations/${organization.id}/audit-events`)).statusCode).toBe(200);
  });

  it('a creator demoted to member administers nothing either', async () => {
    const { creator, organization } = await organizationWithTwoOwners('Demoted Co', 'demoted');
    await organizations.setRoleOf('Demoted Co', creator.email, 'member');
    expect((await call(creator.token, 'GET', `/organizations/${organization.id}/audit-events`)).json().code).toBe('audit.not_admin');
    expect((await call(creator.token, 'GET', '/sso/me/organization/sso')).json().code).toBe('organizations.forbidden');
  });
});

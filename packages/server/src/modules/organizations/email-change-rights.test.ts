import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness';
import { startOrganizationsTest } from '../../../test/organizations';
import type { IdentityClient } from '../../../test/server-with-client';
import { organizationMembers, users } from '../../db/schema';
import type { createOrganizationService } from './service';

/**
 * A membership row belongs to its account: when the account's owner changes its email, the row
 * follows them. The old address, free again, may be registered by someone else; that new
 * account is nobody's member and administers nothing (no owner rights left behind under the
 * old address).
 */
const PASSWORD = 'plum-orbit-cactus-917';
const CODE = /^ {4}(\d{6})$/m;
const ACTIVATION = /\/confirmation\/([\w-]+)/;
let server: TestServer;
let client: IdentityClient;
let organizations: ReturnType<typeof createOrganizationService>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url: `/v3${url}`, payload, headers: { authorization: `Bearer ${token}` } });

async function changeEmail(token: string, to: string) {
  expect((await call(token, 'POST', '/sso/me/email/change', { new_email: to, password: PASSWORD })).statusCode).toBe(204);
  const [, code] = await client.mailTo(to, CODE);
  const confirmed = await call(token, 'POST', '/sso/me/email/change/confirm', { code });
  expect([confirmed.statusCode, confirmed.json().email]).toEqual([200, to]);
}

beforeAll(async () => {
  ({ server, client, organizations } = await startOrganizationsTest());
});
afterAll(() => server.close());

describe("an owner's old address after an email change", () => {
  it('carries no rights: the row follows the owner, and whoever registers the old address administers nothing', async () => {
    const old = 'owner@stale-rights.example';
    const owner = await client.registeredUser(old);
    const [, ownersLink = ''] = await client.mailTo(old, ACTIVATION);
    const organization = await organizations.createNamed({ name: 'Stale Rights Co', adminEmail: old });
    expect((await call(owner, 'GET', `/organizations/${organization.id}/audit-events`)).statusCode).toBe(200);

    await changeEmail(owner, 'owner@moved-on.example');

    // Someone else registers the old address: no membership, no owner rights.
    await client.signUp(old, PASSWORD);
    expect((await client.activate(old, [ownersLink])).statusCode).toBe(200);
    const stranger = (await client.signIn(old, PASSWORD)).json().token as string;
    const audit = await call(stranger, 'GET', `/organizations/${organization.id}/audit-events`);
    expect([audit.statusCode, audit.json().code]).toEqual([403, 'audit.not_admin']);
    expect((await call(stranger, 'GET', `/organizations/${organization.id}/audit-events.csv`)).statusCode).toBe(403);
    expect((await call(stranger, 'GET', '/organizations/administered')).json().items).toEqual([]);
    expect((await call(stranger, 'GET', '/sso/me/organization')).json().code).toBe('organizations.not_member');
    expect((await call(stranger, 'GET', '/sso/me/organization/sso')).json().code).toBe('organizations.not_member');
    const invite = await call(stranger, 'POST', '/sso/me/organization/invitations', { email: 'friend@stale-rights.example', role: 'admin' });
    expect(invite.json().code).toBe('organizations.not_member');
    // The owner keeps their organization under their new address, and its member list says so.
    const mine = await call(owner, 'GET', '/sso/me/organization');
    expect([mine.statusCode, mine.json().role]).toEqual([200, 'owner']);
    expect((await call(owner, 'GET', `/organizations/${organization.id}/audit-events`)).statusCode).toBe(200);
    expect((await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.organizationId, organization.id))).map((row) => row.email)).toEqual([
      'owner@moved-on.example',
    ]);
  });

  it("refuses a new address that is another organization's member, and moves nothing", async () => {
    const old = 'owner@stays-put.example';
    const owner = await client.registeredUser(old);
    const organization = await organizations.createNamed({ name: 'Stays Put Co', adminEmail: old });
    await organizations.createNamed({ name: 'Other Co', adminEmail: 'boss@other-co.example' });
    await organizations.addMemberTo('Other Co', 'newcomer@other-co.example');

    expect((await call(owner, 'POST', '/sso/me/email/change', { new_email: 'newcomer@other-co.example', password: PASSWORD })).statusCode).toBe(204);
    const [, code] = await client.mailTo('newcomer@other-co.example', CODE);
    expect((await call(owner, 'POST', '/sso/me/email/change/confirm', { code })).json().code).toBe('auth.email_exists');

    expect((await client.signIn(old, PASSWORD)).statusCode).toBe(200);
    expect((await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.organizationId, organization.id))).map((row) => row.email)).toEqual([old]);
  });

  it('a row left under an old address before rows followed their account names that account only', async () => {
    const old = 'owner@left-behind.example';
    const owner = await client.registeredUser(old);
    const [, ownersLink = ''] = await client.mailTo(old, ACTIVATION);
    const organization = await organizations.createNamed({ name: 'Left Behind Co', adminEmail: old });
    // The row names the account (as a joined invitation's or a business trial's does); the account's
    // email changed while the row stayed under the old address (as every change did before).
    const [account] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, old));
    await server.database.db.update(organizationMembers).set({ userId: account!.id }).where(eq(organizationMembers.email, old));
    await server.database.db.update(users).set({ email: 'owner@went-away.example' }).where(eq(users.id, account!.id));

    await client.signUp(old, PASSWORD);
    expect((await client.activate(old, [ownersLink])).statusCode).toBe(200);
    const stranger = (await client.signIn(old, PASSWORD)).json().token as string;
    expect((await call(stranger, 'GET', `/organizations/${organization.id}/audit-events`)).json().code).toBe('audit.not_admin');
    expect((await call(stranger, 'GET', '/organizations/administered')).json().items).toEqual([]);
    expect((await call(stranger, 'GET', '/sso/me/organization')).json().code).toBe('organizations.not_member');
    // The SSO settings refuse them too (the one-organization rule still counts the address as taken).
    expect(['organizations.not_member', 'organizations.forbidden']).toContain((await call(stranger, 'GET', '/sso/me/organization/sso')).json().code);
    expect((await call(stranger, 'POST', '/sso/me/organization/invitations', { email: 'friend@left-behind.example', role: 'admin' })).json().code).toBe('organizations.not_member');
    // The account the row names still administers.
    expect((await call(owner, 'GET', `/organizations/${organization.id}/audit-events`)).statusCode).toBe(200);
  });
});

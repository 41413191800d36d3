import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness';
import { startOrganizationsTest } from '../../../test/organizations';
import type { IdentityClient } from '../../../test/server-with-client';
import { organizationInvitations, organizationMembers, users } from '../../db/schema';
import { createMailer } from '../../platform/mail';
import { createMemoryRateLimiter } from '../../platform/rate-limit/memory';
import { limits } from '../../platform/rate-limit';
import { createMembershipService, type MembershipChange } from '.';
import type { createOrganizationService } from './service';

let server: TestServer;
let client: IdentityClient;
let organizations: ReturnType<typeof createOrganizationService>;
const tokens: Record<string, string> = {};
let people = 0;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string | undefined, method: Method, url: string, payload?: object, remoteAddress = '127.0.0.1') =>
  server.app.inject({ method, url: `/v3${url}`, payload, remoteAddress, headers: token ? { authorization: `Bearer ${token}` } : {} });

/** A fresh activated account, signed in; its session token. */
async function person(label: string): Promise<{ email: string; token: string }> {
  const email = `${label}-${++people}@acme.example`;
  tokens[email] = await client.registeredUser(email);
  return { email, token: tokens[email]! };
}

/** The token of the newest invitation link mailed to `email` (sign-up or result screen). */
async function invitationLink(email: string, exclude: string[] = []): Promise<{ token: string; path: string }> {
  // The token is the first group: mailTo skips the excluded ones by it.
  const [link, token] = await client.mailTo(email, /\/(?:register|confirmation\/invitation)\/([\w-]{20,})/, exclude);
  return { token: token!, path: link.includes('/register/') ? 'register' : 'confirmation/invitation' };
}

/** An organization with an owner, an admin and a member, each joined through an invitation. */
async function team(label: string) {
  const owner = await person(`${label}-owner`);
  await organizations.createNamed({ name: `Team ${label}`, adminEmail: owner.email });
  const admin = await person(`${label}-admin`);
  const member = await person(`${label}-member`);
  for (const [who, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    expect((await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: who.email, role })).statusCode).toBe(201);
    const { token } = await invitationLink(who.email);
    expect((await call(who.token, 'POST', '/sso/me/organization/invitations/accept', { token })).statusCode).toBe(200);
  }
  return { owner, admin, member };
}

const roleOf = async (email: string) => (await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.email, email)))[0]?.role;

beforeAll(async () => {
  ({ server, client, organizations } = await startOrganizationsTest());
});
afterAll(() => server.close());

describe('roles', () => {
  it('makes the creating admin the owner; the page lists members with role and join date, invitations only to managers', async () => {
    const { owner, admin, member } = await team('page');
    const page = (await call(owner.token, 'GET', '/sso/me/organization')).json();
    expect(page).toMatchObject({ name: 'Team page', role: 'owner', email: owner.email });
    expect(page.members.map((row: { email: string; role: string }) => [row.email, row.role])).toEqual([
      [owner.email, 'owner'],
      [admin.email, 'admin'],
      [member.email, 'member'],
    ]);
    expect(page.members[0]).toMatchObject({ name: 'Test Person', joined_at: expect.stringMatching(/^\d{4}-/) });
    await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: 'pending-page@elsewhere.example', role: 'member' });
    expect((await call(admin.token, 'GET', '/sso/me/organization')).json().invitations.map((row: { email: string }) => row.email)).toEqual(['pending-page@elsewhere.example']);
    expect((await call(member.token, 'GET', '/sso/me/organization')).json().invitations).toEqual([]);
    expect((await call(member.token, 'GET', '/sso/me/organization/invitations')).json().code).toBe('organizations.forbidden');
    const outsider = await person('outsider');
    const refused = await call(outsider.token, 'GET', '/sso/me/organization');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'organizations.not_member', message: 'Your account is not in any enterprise' });
    expect((await call(undefined, 'GET', '/sso/me/organization')).statusCode).toBe(401);
  });

  it('enforces the permission matrix whatever the page shows', async () => {
    // [actor, action, target role, new role] → allowed
    const cases: [actor: 'owner' | 'admin' | 'member', action: 'remove' | 'role' | 'invite', target: 'owner' | 'admin' | 'member', to: 'owner' | 'admin' | 'member', allowed: boolean][] = [
      ['owner', 'role', 'member', 'owner', true],
      ['owner', 'role', 'admin', 'member', true],
      ['owner', 'remove', 'admin', 'member', true],
      ['owner', 'invite', 'owner', 'owner', true],
      ['admin', 'role', 'member', 'admin', true],
      ['admin', 'role', 'admin', 'member', true],
      ['admin', 'role', 'member', 'owner', false],
      ['admin', 'role', 'owner', 'member', false],
      ['admin', 'remove', 'member', 'member', true],
      ['admin', 'remove', 'owner', 'member', false],
      ['admin', 'invite', 'admin', 'admin', true],
      ['admin', 'invite', 'owner', 'owner', false],
      ['member', 'role', 'member', 'admin', false],
      ['member', 'role', 'admin', 'member', false],
      ['member', 'remove', 'member', 'member', false],
      ['member', 'remove', 'admin', 'member', false],
      ['member', 'invite', 'member', 'member', false],
    ];
    // One team for every case: no case changes its owner, admin or member (only each case's own
    // target), and 17 teams of four accounts were most of the test's time.
    const members = await team('matrix');
    for (const [index, [actorRole, action, targetRole, to, allowed]] of cases.entries()) {
      const actor = members[actorRole];
      // A second member of the target's role, so the actor never acts on itself.
      const target = await person(`matrix${index}-target`);
      expect((await call(members.owner.token, 'POST', '/sso/me/organization/invitations', { email: target.email, role: targetRole })).statusCode).toBe(201);
      const { token } = await invitationLink(target.email);
      expect((await call(target.token, 'POST', '/sso/me/organization/invitations/accept', { token })).statusCode).toBe(200);
      const target2 = `invitee-${index}@elsewhere.example`;
      const path = `/sso/me/organization/members/${encodeURIComponent(target.email)}`;
      const response =
        action === 'remove'
          ? await call(actor.token, 'DELETE', path)
          : action === 'role'
            ? await call(actor.token, 'PUT', `${path}/role`, { role: to })
            : await call(actor.token, 'POST', '/sso/me/organization/invitations', { email: target2, role: to });
      const label = `${actorRole} ${action} ${targetRole} → ${to}`;
      if (allowed) {
        expect(response.statusCode, label).toBeLessThan(300);
      } else {
        expect(response.statusCode, label).toBe(403);
        expect(response.json().code, label).toBe('organizations.forbidden');
      }
      // Nothing changed on a refusal.
      if (!allowed && action !== 'invite') expect(await roleOf(target.email), label).toBe(targetRole);
      if (allowed && action === 'role') expect(await roleOf(target.email), label).toBe(to);
      if (allowed && action === 'remove') expect(await roleOf(target.email), label).toBeUndefined();
    }
  }, 120_000);

  it('refuses bad input with 400 and unknown members with 404', async () => {
    const { owner } = await team('input');
    expect((await call(owner.token, 'PUT', '/sso/me/organization/members/nobody%40acme.example/role', { role: 'admin' })).json()).toMatchObject({
      code: 'organizations.member_not_found',
      message: 'nobody@acme.example is not a member of your organization',
      details: { email: 'nobody@acme.example' },
    });
    expect((await call(owner.token, 'PUT', `/sso/me/organization/members/${encodeURIComponent(owner.email)}/role`, { role: 'king' })).statusCode).toBe(400);
    expect((await call(owner.token, 'DELETE', '/sso/me/organization/members/not-an-email')).statusCode).toBe(400);
    expect((await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: 'x', role: 'member' })).statusCode).toBe(400);
    expect((await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: 'y@example.com' })).statusCode).toBe(400);
    expect((await call(owner.token, 'DELETE', '/sso/me/organization/invitations/not-a-uuid')).statusCode).toBe(400);
    expect((await call(owner.token, 'DELETE', `/sso/me/organization/invitations/${crypto.randomUUID()}`)).json().code).toBe('organizations.invitation_not_found');
  });
});

describe('the last owner', () => {
  it('cannot leave, be removed or be demoted; another owner can then leave', async () => {
    const { owner, admin } = await team('last');
    const self = `/sso/me/organization/members/${encodeURIComponent(owner.email)}`;
    for (const response of [await call(owner.token, 'POST', '/sso/me/organization/leave'), await call(owner.token, 'DELETE', self), await call(owner.token, 'PUT', `${self}/role`, { role: 'admin' })]) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'organizations.last_owner', message: 'The organization needs at least one owner. Make another member an owner first' });
    }
    expect(await roleOf(owner.email)).toBe('owner');
    expect((await call(owner.token, 'PUT', `/sso/me/organization/members/${encodeURIComponent(admin.email)}/role`, { role: 'owner' })).statusCode).toBe(204);
    expect((await call(owner.token, 'POST', '/sso/me/organization/leave')).statusCode).toBe(204);
    expect(await roleOf(owner.email)).toBeUndefined();
    expect((await call(admin.token, 'POST', '/sso/me/organization/leave')).json().code).toBe('organizations.last_owner');
  });

  it('stays when two owners demote each other, leave, or remove each other at once', async () => {
    for (const race of ['demote', 'leave', 'remove'] as const) {
      for (let round = 0; round < 3; round++) {
        const { owner, admin } = await team(`race-${race}-${round}`);
        await call(owner.token, 'PUT', `/sso/me/organization/members/${encodeURIComponent(admin.email)}/role`, { role: 'owner' });
        const [first, second] = [owner, admin];
        const act = (actor: typeof owner, other: typeof owner) =>
          race === 'leave'
            ? call(actor.token, 'POST', '/sso/me/organization/leave')
            : race === 'remove'
              ? call(actor.token, 'DELETE', `/sso/me/organization/members/${encodeURIComponent(other.email)}`)
              : call(actor.token, 'PUT', `/sso/me/organization/members/${encodeURIComponent(actor.email)}/role`, { role: 'member' });
        const answers = await Promise.all([act(first, second), act(second, first)]);
        const codes = answers.map((answer) => answer.statusCode).sort();
        expect(codes[0], race).toBe(204);
        expect(codes[1], race).not.toBe(204);
        const owners = await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.role, 'owner'));
        expect(owners.filter((row) => [owner.email, admin.email].includes(row.email)), race).toHaveLength(1);
      }
    }
  }, 120_000);
});

describe('invitations', () => {
  it('mails a sign-up link to a new email; signing up from it joins once the account is active', async () => {
    const { owner } = await team('signup');
    const email = 'newcomer-signup@elsewhere.example';
    const invited = await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: ' NewComer-Signup@elsewhere.example ', role: 'admin' });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ email, role: 'admin', expired: false });
    expect(new Date(invited.json().expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    const link = await invitationLink(email);
    expect(link.path).toBe('register');
    // The token is stored hashed, never as sent.
    const [row] = await server.database.db.select().from(organizationInvitations).where(eq(organizationInvitations.email, email));
    expect(row!.tokenHash).not.toContain(link.token);
    expect((await call(undefined, 'POST', '/sso/organization-invitations/preview', { token: link.token })).json()).toEqual({
      organization_name: 'Team signup',
      email,
      role: 'admin',
      status: 'pending',
      has_account: false,
    });
    expect((await call(undefined, 'POST', '/sso/organization-invitations/sign-up', { token: link.token })).statusCode).toBe(204);
    await client.signUp(email);
    expect(await roleOf(email)).toBeUndefined();
    expect((await client.activate(email)).statusCode).toBe(200);
    expect(await roleOf(email)).toBe('admin');
    expect((await call(undefined, 'POST', '/sso/organization-invitations/preview', { token: link.token })).json()).toMatchObject({ status: 'accepted', has_account: true });
  });

  it('never joins an account that signed up without following the link', async () => {
    const { owner } = await team('unclaimed');
    const email = 'unclaimed@elsewhere.example';
    await call(owner.token, 'POST', '/sso/me/organization/invitations', { email, role: 'member' });
    await client.signUp(email);
    await client.activate(email);
    expect(await roleOf(email)).toBeUndefined();
  });

  it('mails a result-screen link to an existing account, accepted once (replay refused)', async () => {
    const { owner } = await team('accept');
    const invitee = await person('invitee');
    await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: invitee.email, role: 'member' });
    const link = await invitationLink(invitee.email);
    expect(link.path).toBe('confirmation/invitation');
    const accepted = await call(invitee.token, 'POST', '/sso/me/organization/invitations/accept', { token: link.token });
    expect(accepted.json()).toEqual({ organization_name: 'Team accept', role: 'member' });
    const replay = await call(invitee.token, 'POST', '/sso/me/organization/invitations/accept', { token: link.token });
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toMatchObject({ code: 'organizations.invitation_used', message: 'This invitation has already been accepted' });
    expect((await call(owner.token, 'GET', '/sso/me/organization')).json().invitations).toEqual([]);
  });

  it('refuses expired, revoked, resent (old link), unknown and other people’s invitations', async () => {
    const { owner, admin } = await team('refusals');
    const invitee = await person('refused');
    const other = await person('other');
    const invite = async () => (await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: invitee.email, role: 'member' })).json() as { id: string };
    const accept = (token: string, who = invitee) => call(who.token, 'POST', '/sso/me/organization/invitations/accept', { token });

    const first = await invite();
    const firstLink = await invitationLink(invitee.email);
    expect((await accept(firstLink.token, other)).json()).toMatchObject({ code: 'organizations.invitation_other_person' });
    await server.database.db.update(organizationInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(organizationInvitations.id, first.id));
    const expired = await accept(firstLink.token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'organizations.invitation_expired', message: 'This invitation has expired. Ask the organization for a new one' });
    expect((await call(undefined, 'POST', '/sso/organization-invitations/preview', { token: firstLink.token })).json().status).toBe('expired');

    // Resending gives a new link valid 7 days; the old one stops working.
    const resent = await call(admin.token, 'POST', `/sso/me/organization/invitations/${first.id}/resend`);
    expect(resent.json()).toMatchObject({ id: first.id, expired: false });
    const secondLink = await invitationLink(invitee.email, [firstLink.token]);
    expect(secondLink.token).not.toBe(firstLink.token);
    expect((await accept(firstLink.token)).json().code).toBe('organizations.invitation_invalid');

    expect((await call(admin.token, 'DELETE', `/sso/me/organization/invitations/${first.id}`)).statusCode).toBe(204);
    const revoked = await accept(secondLink.token);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json()).toMatchObject({ code: 'organizations.invitation_revoked', message: 'This invitation was withdrawn by the organization' });
    expect((await call(undefined, 'POST', '/sso/organization-invitations/sign-up', { token: secondLink.token })).json().code).toBe('organizations.invitation_revoked');
    expect((await call(admin.token, 'DELETE', `/sso/me/organization/invitations/${first.id}`)).json().code).toBe('organizations.invitation_not_found');
    expect((await accept('x'.repeat(43))).json()).toMatchObject({ code: 'organizations.invitation_invalid', message: 'This invitation link is not valid' });
    expect((await accept('short')).statusCode).toBe(400);
    expect(await roleOf(invitee.email)).toBeUndefined();

    // An admin cannot resend or revoke an owner's invitation.
    const ownerInvite = (await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: 'future-owner@elsewhere.example', role: 'owner' })).json();
    expect((await call(admin.token, 'DELETE', `/sso/me/organization/invitations/${ownerInvite.id}`)).json().code).toBe('organizations.forbidden');
    expect((await call(admin.token, 'POST', `/sso/me/organization/invitations/${ownerInvite.id}/resend`)).json().code).toBe('organizations.forbidden');
    // Nor replace it by inviting the same email again (the upsert would give it a new role, link and inviter).
    const ownerLink = await invitationLink('future-owner@elsewhere.example');
    const reinvited = await call(admin.token, 'POST', '/sso/me/organization/invitations', { email: 'future-owner@elsewhere.example', role: 'member' });
    expect(reinvited.statusCode, reinvited.body).toBe(403);
    expect(reinvited.json().code).toBe('organizations.forbidden');
    const [kept] = await server.database.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, ownerInvite.id));
    const [ownerAccount] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, owner.email));
    expect(kept).toMatchObject({ role: 'owner', invitedBy: ownerAccount!.id });
    expect((await call(undefined, 'POST', '/sso/organization-invitations/preview', { token: ownerLink.token })).json()).toMatchObject({ status: 'pending', role: 'owner' });
    // The owner may still replace it (a new link and role, as inviting again does).
    const replaced = await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: 'future-owner@elsewhere.example', role: 'admin' });
    expect(replaced.json()).toMatchObject({ id: ownerInvite.id, role: 'admin' });
    // An owner's invitation whose link expired withdraws nothing when replaced: an admin may invite that email.
    const lapsed = (await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: 'lapsed-owner@elsewhere.example', role: 'owner' })).json();
    await server.database.db.update(organizationInvitations).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(organizationInvitations.id, lapsed.id));
    const renewed = await call(admin.token, 'POST', '/sso/me/organization/invitations', { email: 'lapsed-owner@elsewhere.example', role: 'member' });
    expect(renewed.statusCode, renewed.body).toBe(201);
    expect(renewed.json()).toMatchObject({ id: lapsed.id, role: 'member', expired: false });
  });

  it('refuses an email already in an organization: 7015 for another one, already a member for this one', async () => {
    const { owner, member } = await team('7015');
    const other = await team('7015b');
    const refused = await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: other.member.email, role: 'member' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: '7015', message: `${other.member.email} is in an Enterprise, leave it or use another email`, details: { email: other.member.email } });
    expect((await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: member.email, role: 'admin' })).json()).toMatchObject({ code: 'organizations.already_member', details: { email: member.email } });

    // Invited while free, then joined another organization: accepting answers 7015 and the invitation stays pending.
    const drifter = await person('drifter');
    await call(owner.token, 'POST', '/sso/me/organization/invitations', { email: drifter.email, role: 'member' });
    const link = await invitationLink(drifter.email);
    await call(other.owner.token, 'POST', '/sso/me/organization/invitations', { email: drifter.email, role: 'member' });
    const otherLink = await invitationLink(drifter.email, [link.token]);
    expect((await call(drifter.token, 'POST', '/sso/me/organization/invitations/accept', { token: otherLink.token })).statusCode).toBe(200);
    const late = await call(drifter.token, 'POST', '/sso/me/organization/invitations/accept', { token: link.token });
    expect(late.json()).toMatchObject({ code: '7015', details: { email: drifter.email } });
    expect((await call(undefined, 'POST', '/sso/organization-invitations/preview', { token: link.token })).json().status).toBe('pending');
    // Leaving frees the email: the same link then works.
    expect((await call(drifter.token, 'POST', '/sso/me/organization/leave')).statusCode).toBe(204);
    expect((await call(drifter.token, 'POST', '/sso/me/organization/invitations/accept', { token: link.token })).statusCode).toBe(200);
    expect(await roleOf(drifter.email)).toBe('member');
  });

  it('counts invitations per inviter atomically (parallel requests)', async () => {
    const { owner } = await team('limit');
    const answers = await Promise.all(
      Array.from({ length: limits.invitationsPerInviter.limit + 5 }, (_, index) => call(owner.token, 'POST', '/sso/me/organization/invitations', { email: `bulk${index}@elsewhere.example`, role: 'member' })),
    );
    const codes = answers.map((answer) => answer.statusCode);
    // The owner already invited the team's admin and member.
    const left = limits.invitationsPerInviter.limit - 2;
    expect(codes.filter((code) => code === 201)).toHaveLength(left);
    expect(codes.filter((code) => code === 429)).toHaveLength(7);
    const pending = (await call(owner.token, 'GET', '/sso/me/organization/invitations')).json();
    expect(pending).toHaveLength(left);
  });

  it("keeps the owner's invitation when an admin invites the same email at the same moment (parallel requests)", async () => {
    const { owner, admin } = await team('race');
    for (let round = 0; round < 4; round++) {
      const email = `contested-${round}@elsewhere.example`;
      const [byOwner, byAdmin] = await Promise.all([
        call(owner.token, 'POST', '/sso/me/organization/invitations', { email, role: 'owner' }),
        call(admin.token, 'POST', '/sso/me/organization/invitations', { email, role: 'member' }),
      ]);
      expect(byOwner.statusCode, byOwner.body).toBe(201);
      // The admin's went first (the owner's then replaced it) or was refused: never over the owner's.
      expect([201, 403], byAdmin.body).toContain(byAdmin.statusCode);
      const rows = await server.database.db.select().from(organizationInvitations).where(eq(organizationInvitations.email, email));
      expect(rows.map((row) => row.role)).toEqual(['owner']);
    }
  });
});

describe('the membership hook', () => {
  it('reports every membership and role change', async () => {
    const changes: MembershipChange[] = [];
    const service = createMembershipService({
      db: server.database.db,
      clock: { now: () => new Date() },
      config: server.config,
      mailer: createMailer({ from: 'test@example.com', database: server.database }),
      limiter: createMemoryRateLimiter(),
      log: { error: () => undefined },
      onMembershipChanged: (change) => void changes.push(change),
    });
    const origin = { brand: 'platform', lang: 'en', ip: '127.0.0.1', limitAddress: '127.0.0.1', deviceId: 'd' } as const;
    const { owner, member } = await team('hook');
    const [ownerUser] = await server.database.db.select().from(users).where(eq(users.email, owner.email));
    const [memberUser] = await server.database.db.select().from(users).where(eq(users.email, member.email));
    const invitee = await person('hooked');
    const [inviteeUser] = await server.database.db.select().from(users).where(eq(users.email, invitee.email));
    const invitation = await service.invite(ownerUser!, { email: invitee.email, role: 'member' }, origin);
    const first = await invitationLink(invitee.email);
    await service.resend(ownerUser!, invitation.id, origin);
    const { token } = await invitationLink(invitee.email, [first.token]);
    await service.accept(inviteeUser!, token);
    await service.changeRole(ownerUser!, invitee.email, 'admin');
    await service.remove(ownerUser!, invitee.email);
    await service.invite(ownerUser!, { email: 'withdrawn@elsewhere.example', role: 'member' }, origin).then((row) => service.revoke(ownerUser!, row.id));
    await service.leave(memberUser!);
    const organizationId = changes[0]!.organizationId;
    expect(changes.map(({ action, targetEmail, actorUserId }) => [action, targetEmail, actorUserId])).toEqual([
      ['member_invited', invitee.email, ownerUser!.id],
      ['member_invited', invitee.email, ownerUser!.id],
      ['member_joined', invitee.email, inviteeUser!.id],
      ['role_changed', invitee.email, ownerUser!.id],
      ['member_removed', invitee.email, ownerUser!.id],
      ['member_invited', 'withdrawn@elsewhere.example', ownerUser!.id],
      ['invitation_revoked', 'withdrawn@elsewhere.example', ownerUser!.id],
      ['member_left', member.email, memberUser!.id],
    ]);
    expect(changes.every((change) => change.organizationId === organizationId)).toBe(true);
    expect(changes[3]!.detail).toEqual({ from: 'member', to: 'admin' });
    expect(await service.roleOf(ownerUser!.id, organizationId)).toBe('owner');
    expect(await service.roleOf(inviteeUser!.id, organizationId)).toBeUndefined();
  });
});

describe('the audit log of the real app', () => {
  it("receives every membership and role change, with who did it and the roles in the page's words", async () => {
    const { owner, admin, member } = await team('audited');
    const [row] = await server.database.db.select().from(organizationMembers).where(eq(organizationMembers.email, owner.email));
    expect((await call(owner.token, 'PUT', `/sso/me/organization/members/${encodeURIComponent(member.email)}/role`, { role: 'admin' })).statusCode).toBe(204);
    expect((await call(owner.token, 'DELETE', `/sso/me/organization/members/${encodeURIComponent(admin.email)}`)).statusCode).toBe(204);
    const log = await call(owner.token, 'GET', `/organizations/${row!.organizationId}/audit-events?action=member_invited,member_joined,role_changed,member_removed`);
    expect(log.statusCode).toBe(200);
    const entries = (log.json() as { items: Array<{ action: string; actor_email: string | null; target_email: string | null; detail: Record<string, unknown> }> }).items;
    expect(entries.map((entry) => `${entry.action} ${entry.target_email}`).reverse()).toEqual([
      `member_invited ${admin.email}`,
      `member_joined ${admin.email}`,
      `member_invited ${member.email}`,
      `member_joined ${member.email}`,
      `role_changed ${member.email}`,
      `member_removed ${admin.email}`,
    ]);
    const roleChange = entries.find((entry) => entry.action === 'role_changed')!;
    expect(roleChange).toMatchObject({ actor_email: owner.email, detail: { role: 'admin', previous_role: 'member' } });
  });
});

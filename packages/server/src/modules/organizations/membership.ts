import { randomUUID } from 'node:crypto';
import {
  INVITATION_VALID_DAYS,
  invitationConfirmationPath,
  invitationSignUpPath,
  mayChangeRole,
  mayInvite,
  mayManageInvitations,
  mayRemove,
  organizationRoles,
  type InvitationPreview,
  type InvitationStatus,
  type MyOrganization,
  type OrganizationInvitation,
  type OrganizationRole,
} from '@portal/contracts';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { DatabaseTransaction } from '../../db/client';
import { organizationInvitations, organizationMembers, organizations, users } from '../../db/schema';
import { originFor } from '../../platform/brand';
import type { InvitationServiceDependencies } from '../../platform/invitation-dependencies';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { sendInBackground } from '../../platform/mail';
import { limits, rateKey, rateLimited } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { mailLanguage } from '../users';
import { invitationMail } from './mail';
import {
  deleteMember,
  listMembers,
  membershipOfAccount,
  membershipOfEmail,
  roleIn,
  roleOfUser,
  updateRole,
  withOrganizationLocked,
  type Membership,
  type MemberJoinedHook,
  type MembershipChange,
  type MembershipChangeHook,
} from './members';

type InvitationRow = typeof organizationInvitations.$inferSelect;

/** Who is acting: the signed-in account. Members are kept by email, so the account's email finds its membership. */
export interface Actor {
  id: string;
  email: string;
  fullName: string | null;
  language: string;
}

export interface MembershipDependencies extends InvitationServiceDependencies {
  /** Every membership and role change; the integrator binds it to the audit log. A failing hook is logged, the change stays. */
  onMembershipChanged?: MembershipChangeHook;
  /** Told of every member an invitation adds (company SSO's, bound in app.ts). */
  memberJoined?: MemberJoinedHook;
}

export type MembershipService = ReturnType<typeof createMembershipService>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Thrown inside a joining transaction to undo it: the email is in an organization already. */
class InOrganization extends Error {}

function statusOf(invitation: InvitationRow, now: Date): InvitationStatus {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  return invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

const refusalOf: Record<Exclude<InvitationStatus, 'pending'>, 'organizations.invitation_used' | 'organizations.invitation_revoked' | 'organizations.invitation_expired'> = {
  accepted: 'organizations.invitation_used',
  revoked: 'organizations.invitation_revoked',
  expired: 'organizations.invitation_expired',
};

/**
 * Roles and invitations of organizations. Owners do everything, admins manage
 * members and admins but never owners, members only look (the rules are the contracts'
 * may* functions, shared with the web page). Every change of membership or role locks the
 * organization's row, so the last-owner guard in its statement holds against parallel requests.
 */
export function createMembershipService(deps: MembershipDependencies) {
  const { db, clock, limiter } = deps;

  async function report(change: MembershipChange): Promise<void> {
    if (!deps.onMembershipChanged) return;
    try {
      await deps.onMembershipChanged(change);
    } catch (error) {
      deps.log.error({ err: error, action: change.action }, 'membership change hook failed');
    }
  }

  async function membershipOf(actor: Actor): Promise<Membership> {
    const membership = await membershipOfAccount(db, actor);
    if (!membership) throw new AppError('organizations.not_member');
    return membership;
  }

  /**
   * Runs `change` under the organization's lock with the actor's role and the member `email`'s,
   * both read under it: refused when the actor is no longer a member, or `email` is not one.
   */
  function withRolesLocked<T>(organizationId: string, actor: Actor, email: string, change: (tx: DatabaseTransaction, actorRole: OrganizationRole, target: OrganizationRole) => Promise<T>): Promise<T> {
    return withOrganizationLocked(db, organizationId, async (tx) => {
      const actorRole = await roleIn(tx, organizationId, actor.email);
      if (!actorRole) throw new AppError('organizations.not_member');
      const target = await roleIn(tx, organizationId, email);
      if (!target) throw new AppError('organizations.member_not_found', { email }, { email });
      return change(tx, actorRole, target);
    });
  }

  const toInvitation = (row: InvitationRow, now: Date): OrganizationInvitation => ({
    id: row.id,
    email: row.email,
    role: row.role as OrganizationRole,
    invited_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now.getTime(),
  });

  const pending = () => and(isNull(organizationInvitations.acceptedAt), isNull(organizationInvitations.revokedAt));

  async function pendingInvitations(organizationId: string): Promise<OrganizationInvitation[]> {
    const now = clock.now();
    const rows = await db.select().from(organizationInvitations).where(and(eq(organizationInvitations.organizationId, organizationId), pending())).orderBy(desc(organizationInvitations.createdAt));
    return rows.map((row) => toInvitation(row, now));
  }

  async function hasActiveAccount(email: string): Promise<boolean> {
    const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.email, email), isNotNull(users.activatedAt))).limit(1);
    return !!row;
  }

  /** Mails the link: the result screen for an email with an account, the sign-up page otherwise. */
  async function mailInvitation(invitation: { email: string; role: OrganizationRole }, token: string, organizationName: string, actor: Actor, origin: RequestOrigin): Promise<void> {
    const path = (await hasActiveAccount(invitation.email)) ? invitationConfirmationPath(token) : invitationSignUpPath(token);
    const [invitee] = await db.select({ language: users.language, fullName: users.fullName }).from(users).where(eq(users.email, invitation.email)).limit(1);
    const rendered = invitationMail({
      lang: invitee ? mailLanguage(invitee, origin) : origin.lang,
      brand: origin.brand,
      name: invitee?.fullName ?? undefined,
      organization: organizationName,
      inviter: actor.fullName?.trim() || actor.email,
      role: invitation.role,
      link: `${originFor(deps.config, origin.brand)}${path}`,
    });
    sendInBackground(deps.mailer, deps.log, { to: invitation.email, ...rendered });
  }

  /** Invitations mailed per organization and per inviter (atomic counters of the limiter), checked before anything is stored. */
  async function throttleInvitations(organizationId: string, actor: Actor): Promise<void> {
    rateLimited(await limiter.consume(rateKey(limits.invitationsPerInviter, actor.id), limits.invitationsPerInviter));
    rateLimited(await limiter.consume(rateKey(limits.invitationsPerOrganization, organizationId), limits.invitationsPerOrganization));
  }

  async function invitationByToken(token: string): Promise<InvitationRow> {
    const [row] = await db.select().from(organizationInvitations).where(eq(organizationInvitations.tokenHash, sha256(token))).limit(1);
    if (!row) throw new AppError('organizations.invitation_invalid');
    return row;
  }

  /**
   * Joins the invited email's organization: claims the invitation (one statement: pending, not
   * expired; a replay finds it taken) and adds the member in the same transaction. An email
   * already in an organization is refused (7015, or already a member of this one) and the
   * invitation stays pending.
   */
  async function join(invitation: InvitationRow, account: { id: string; email: string }): Promise<{ organizationName: string; role: OrganizationRole }> {
    const now = clock.now();
    const joined = await withOrganizationLocked(db, invitation.organizationId, async (tx) => {
      const claimed = await tx
        .update(organizationInvitations)
        .set({ acceptedAt: now })
        .where(and(eq(organizationInvitations.id, invitation.id), pending(), gt(organizationInvitations.expiresAt, now)))
        .returning({ id: organizationInvitations.id });
      if (claimed.length === 0) return 'gone' as const;
      const added = await tx
        .insert(organizationMembers)
        .values({ organizationId: invitation.organizationId, email: invitation.email, userId: account.id, role: invitation.role, createdAt: now })
        .onConflictDoNothing()
        .returning({ email: organizationMembers.email });
      // Already in an organization: the claim is undone with the transaction.
      if (added.length === 0) throw new InOrganization();
      return 'joined' as const;
    }).catch(async (error: unknown) => {
      if (!(error instanceof InOrganization)) throw error;
      const existing = await membershipOfEmail(db, invitation.email);
      if (existing?.organizationId === invitation.organizationId) throw new AppError('organizations.already_member', { email: invitation.email }, { email: invitation.email });
      throw new AppError('7015', { email: invitation.email }, { email: invitation.email });
    });
    if (joined === 'gone') {
      const [fresh] = await db.select().from(organizationInvitations).where(eq(organizationInvitations.id, invitation.id));
      const status = fresh ? statusOf(fresh, now) : 'revoked';
      throw new AppError(status === 'pending' ? 'organizations.invitation_invalid' : refusalOf[status]);
    }
    await report({ organizationId: invitation.organizationId, actorUserId: account.id, action: 'member_joined', targetEmail: invitation.email, detail: { role: invitation.role, invitationId: invitation.id } });
    // Joining an organization that requires SSO ends the person's other sessions, the one
    // accepting included: they sign in again through the organization's IdP.
    await deps.memberJoined?.(invitation.organizationId, invitation.email);
    const membership = await membershipOfEmail(db, invitation.email);
    return { organizationName: membership?.organizationName ?? '', role: invitation.role as OrganizationRole };
  }

  return {
    /** The role of an account in an organization (undefined when not a member), for other modules' admin checks. */
    roleOf: (userId: string, organizationId: string) => roleOfUser(db, userId, organizationId),

    /** The organization page: the caller's organization, role, members, and pending invitations for those who manage them. */
    async mine(actor: Actor): Promise<MyOrganization> {
      const membership = await membershipOf(actor);
      const members = await listMembers(db, membership.organizationId);
      return {
        id: membership.organizationId,
        name: membership.organizationName,
        role: membership.role,
        email: membership.email,
        members: members.map((member) => ({ email: member.email, name: member.name, role: member.role as OrganizationRole, joined_at: member.joinedAt.toISOString() })),
        invitations: mayManageInvitations(membership.role) ? await pendingInvitations(membership.organizationId) : [],
      };
    },

    async invitations(actor: Actor): Promise<OrganizationInvitation[]> {
      const membership = await membershipOf(actor);
      if (!mayManageInvitations(membership.role)) throw new AppError('organizations.forbidden');
      return pendingInvitations(membership.organizationId);
    },

    /**
     * Invites an email with a role: one pending invitation per organization and email (inviting
     * again replaces its link, role and expiry in one upsert). An email already in an
     * organization is refused: this one's members (already a member), another's (7015). A
     * pending invitation is replaced only by someone who may invite its role too, as resend and
     * revoke ask: an admin re-inviting an owner's invitee would otherwise withdraw the owner's
     * link and downgrade it (a link already expired may be replaced by anyone who invites).
     * Checked by the upsert itself (no row when the pending one's role is not theirs), so an
     * invitation raised to owner meanwhile is not replaced either.
     */
    async invite(actor: Actor, input: { email: string; role: OrganizationRole }, origin: RequestOrigin): Promise<OrganizationInvitation> {
      const membership = await membershipOf(actor);
      if (!mayInvite(membership.role, input.role)) throw new AppError('organizations.forbidden');
      const existing = await membershipOfEmail(db, input.email);
      if (existing?.organizationId === membership.organizationId) throw new AppError('organizations.already_member', { email: input.email }, { email: input.email });
      if (existing) throw new AppError('7015', { email: input.email }, { email: input.email });
      await throttleInvitations(membership.organizationId, actor);
      const token = randomToken();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS);
      const [row] = await db
        .insert(organizationInvitations)
        .values({ id: randomUUID(), organizationId: membership.organizationId, email: input.email, role: input.role, tokenHash: sha256(token), invitedBy: actor.id, expiresAt, createdAt: now })
        .onConflictDoUpdate({
          target: [organizationInvitations.organizationId, organizationInvitations.email],
          targetWhere: pending(),
          set: { role: input.role, tokenHash: sha256(token), invitedBy: actor.id, expiresAt, createdAt: now, signupClaimedAt: null },
          // Theirs to replace, or a link that expired (replacing it withdraws nothing).
          setWhere: or(
            inArray(
              organizationInvitations.role,
              organizationRoles.filter((role) => mayInvite(membership.role, role)),
            ),
            lte(organizationInvitations.expiresAt, now),
          ),
        })
        .returning();
      if (!row) throw new AppError('organizations.forbidden');
      await mailInvitation(input, token, membership.organizationName, actor, origin);
      await report({ organizationId: membership.organizationId, actorUserId: actor.id, action: 'member_invited', targetEmail: input.email, detail: { role: input.role, invitationId: row.id } });
      return toInvitation(row, now);
    },

    /** A new link for a pending invitation (the old one stops working), valid 7 days from now. */
    async resend(actor: Actor, invitationId: string, origin: RequestOrigin): Promise<OrganizationInvitation> {
      const membership = await membershipOf(actor);
      const [invitation] = await db.select().from(organizationInvitations).where(and(eq(organizationInvitations.id, invitationId), eq(organizationInvitations.organizationId, membership.organizationId), pending()));
      if (!invitation) throw new AppError('organizations.invitation_not_found');
      if (!mayInvite(membership.role, invitation.role as OrganizationRole)) throw new AppError('organizations.forbidden');
      await throttleInvitations(membership.organizationId, actor);
      const token = randomToken();
      const now = clock.now();
      const [row] = await db
        .update(organizationInvitations)
        .set({ tokenHash: sha256(token), expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS) })
        .where(and(eq(organizationInvitations.id, invitation.id), pending()))
        .returning();
      if (!row) throw new AppError('organizations.invitation_not_found');
      await mailInvitation({ email: row.email, role: row.role as OrganizationRole }, token, membership.organizationName, actor, origin);
      await report({ organizationId: membership.organizationId, actorUserId: actor.id, action: 'member_invited', targetEmail: row.email, detail: { role: row.role, invitationId: row.id, resent: true } });
      return toInvitation(row, now);
    },

    async revoke(actor: Actor, invitationId: string): Promise<void> {
      const membership = await membershipOf(actor);
      const [invitation] = await db.select().from(organizationInvitations).where(and(eq(organizationInvitations.id, invitationId), eq(organizationInvitations.organizationId, membership.organizationId), pending()));
      if (!invitation) throw new AppError('organizations.invitation_not_found');
      if (!mayInvite(membership.role, invitation.role as OrganizationRole)) throw new AppError('organizations.forbidden');
      const rows = await db
        .update(organizationInvitations)
        .set({ revokedAt: clock.now() })
        .where(and(eq(organizationInvitations.id, invitation.id), pending()))
        .returning({ id: organizationInvitations.id });
      if (rows.length === 0) throw new AppError('organizations.invitation_not_found');
      await report({ organizationId: membership.organizationId, actorUserId: actor.id, action: 'invitation_revoked', targetEmail: invitation.email, detail: { role: invitation.role, invitationId: invitation.id } });
    },

    /** Changes a member's role: the actor's and target's roles are read under the organization's lock. */
    async changeRole(actor: Actor, email: string, role: OrganizationRole): Promise<void> {
      const membership = await membershipOf(actor);
      const from = await withRolesLocked(membership.organizationId, actor, email, async (tx, actorRole, target) => {
        if (!mayChangeRole(actorRole, target, role)) throw new AppError('organizations.forbidden');
        if (target === role) return undefined;
        if (!(await updateRole(tx, membership.organizationId, email, role))) throw new AppError('organizations.last_owner');
        return target;
      });
      if (from) await report({ organizationId: membership.organizationId, actorUserId: actor.id, action: 'role_changed', targetEmail: email, detail: { from, to: role } });
    },

    /** Removes another member (leaving is `leave`). */
    async remove(actor: Actor, email: string): Promise<void> {
      const membership = await membershipOf(actor);
      const removed = await withRolesLocked(membership.organizationId, actor, email, async (tx, actorRole, target) => {
        if (!mayRemove(actorRole, target)) throw new AppError('organizations.forbidden');
        const role = await deleteMember(tx, membership.organizationId, email);
        if (!role) throw new AppError('organizations.last_owner');
        return role;
      });
      const action = email === membership.email ? 'member_left' : 'member_removed';
      await report({ organizationId: membership.organizationId, actorUserId: actor.id, action, targetEmail: email, detail: { role: removed } });
    },

    async leave(actor: Actor): Promise<void> {
      const membership = await membershipOf(actor);
      const role = await withOrganizationLocked(db, membership.organizationId, async (tx) => {
        const left = await deleteMember(tx, membership.organizationId, membership.email);
        if (!left) throw new AppError((await roleIn(tx, membership.organizationId, membership.email)) ? 'organizations.last_owner' : 'organizations.not_member');
        return left;
      });
      await report({ organizationId: membership.organizationId, actorUserId: actor.id, action: 'member_left', targetEmail: membership.email, detail: { role } });
    },

    /** The link before signing in: the organization, the invited email and status, and whether the email has an account. */
    async preview(token: string, origin: RequestOrigin): Promise<InvitationPreview> {
      rateLimited(await limiter.consume(rateKey(limits.invitationLinksPerIp, origin.limitAddress), limits.invitationLinksPerIp));
      const invitation = await invitationByToken(token);
      const [organization] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, invitation.organizationId));
      return {
        organization_name: organization?.name ?? '',
        email: invitation.email,
        role: invitation.role as OrganizationRole,
        status: statusOf(invitation, clock.now()),
        has_account: await hasActiveAccount(invitation.email),
      };
    },

    /** The signed-in account accepts an invitation mailed to its email. */
    async accept(actor: Actor, token: string): Promise<{ organization_name: string; role: OrganizationRole }> {
      const invitation = await invitationByToken(token);
      const status = statusOf(invitation, clock.now());
      if (status !== 'pending') throw new AppError(refusalOf[status]);
      if (invitation.email !== actor.email.toLowerCase()) throw new AppError('organizations.invitation_other_person');
      const joined = await join(invitation, actor);
      return { organization_name: joined.organizationName, role: joined.role };
    },

    /** The invited person signed up from the link: the account joins once activated (joinOnActivation). */
    async claimForSignUp(token: string, origin: RequestOrigin): Promise<void> {
      rateLimited(await limiter.consume(rateKey(limits.invitationLinksPerIp, origin.limitAddress), limits.invitationLinksPerIp));
      const invitation = await invitationByToken(token);
      const now = clock.now();
      const status = statusOf(invitation, now);
      if (status !== 'pending') throw new AppError(refusalOf[status]);
      await db
        .update(organizationInvitations)
        .set({ signupClaimedAt: now })
        .where(and(eq(organizationInvitations.id, invitation.id), pending()));
    },

    /**
     * An account was activated (auth's afterActivation): the newest unexpired invitation its
     * email signed up from is accepted. Only claimed ones: an invitation nobody followed is
     * never accepted for them.
     */
    async joinOnActivation(user: { id: string; email: string }): Promise<void> {
      const now = clock.now();
      const [invitation] = await db
        .select()
        .from(organizationInvitations)
        .where(and(eq(organizationInvitations.email, user.email.toLowerCase()), pending(), isNotNull(organizationInvitations.signupClaimedAt), gt(organizationInvitations.expiresAt, now)))
        .orderBy(desc(organizationInvitations.signupClaimedAt), asc(organizationInvitations.id))
        .limit(1);
      if (invitation) await join(invitation, user);
    },
  };
}

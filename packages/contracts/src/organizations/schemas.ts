import { z } from 'zod';
import { emailSchema } from '../auth/schemas';

/**
 * Organizations (enterprises): roles, members and invitations. The permission rules
 * live here so the server enforces exactly what the web page offers.
 */
export const organizationRoles = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];
export const organizationRoleSchema = z.enum(organizationRoles);

/** Days an invitation link stays valid. */
export const INVITATION_VALID_DAYS = 7;

const manages = (actor: OrganizationRole) => actor === 'owner' || actor === 'admin';

/** Whether `actor` may invite someone as `role`: owners any role, admins members and admins, members nobody. */
export function mayInvite(actor: OrganizationRole, role: OrganizationRole): boolean {
  return actor === 'owner' || (actor === 'admin' && role !== 'owner');
}

/** Whether `actor` may remove a member of `target` role (the last owner is guarded apart). Admins never touch owners. */
export function mayRemove(actor: OrganizationRole, target: OrganizationRole): boolean {
  return actor === 'owner' || (actor === 'admin' && target !== 'owner');
}

/** Whether `actor` may change a `target` member's role to `role`: owners any, admins between member and admin only. */
export function mayChangeRole(actor: OrganizationRole, target: OrganizationRole, role: OrganizationRole): boolean {
  return actor === 'owner' || (actor === 'admin' && target !== 'owner' && role !== 'owner');
}

/** Whether `actor` sees and manages pending invitations (resend and revoke follow mayInvite of the invitation's role). */
export const mayManageInvitations = manages;

export const organizationMemberSchema = z.object({
  email: z.string(),
  name: z.string().nullable(),
  role: organizationRoleSchema,
  joined_at: z.string(),
});
export type OrganizationMember = z.infer<typeof organizationMemberSchema>;

export const organizationInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: organizationRoleSchema,
  invited_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
});
export type OrganizationInvitation = z.infer<typeof organizationInvitationSchema>;

/** The organization page: the caller's organization, role, members, and (for owners and admins) pending invitations. */
export const myOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: organizationRoleSchema,
  email: z.string(),
  members: z.array(organizationMemberSchema),
  invitations: z.array(organizationInvitationSchema),
});
export type MyOrganization = z.infer<typeof myOrganizationSchema>;

export const inviteRequestSchema = z.object({ email: emailSchema, role: organizationRoleSchema });
export const changeRoleRequestSchema = z.object({ role: organizationRoleSchema });

/** A mailed invitation token, as the link carries it. */
export const invitationTokenRequestSchema = z.object({ token: z.string().trim().min(20).max(200) });

export const invitationStatuses = ['pending', 'expired', 'revoked', 'accepted'] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

/** What the link shows before anyone signs in: the organization, the invited email, and whether it has an account. */
export const invitationPreviewSchema = z.object({
  organization_name: z.string(),
  email: z.string(),
  role: organizationRoleSchema,
  status: z.enum(invitationStatuses),
  has_account: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const invitationAcceptedSchema = z.object({ organization_name: z.string(), role: organizationRoleSchema });

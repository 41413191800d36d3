import { z } from 'zod';
import {
  changeRoleRequestSchema,
  invitationAcceptedSchema,
  invitationPreviewSchema,
  invitationTokenRequestSchema,
  inviteRequestSchema,
  myOrganizationSchema,
  organizationInvitationSchema,
} from './schemas';
import { emailSchema } from '../auth/schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/**
 * The organization page: a signed-in member's organization, its members and roles,
 * and invitations by email. Every action is checked against the caller's role on the server.
 */
const { anyone, signedIn } = endpointGroups('organizations');
/** The organization's owners and admins: a member of no organization, or a plain member, is refused. */
const managers = { ...signedIn, errors: ['organizations.not_member', 'organizations.forbidden'] } as const;
const invitationParams = z.object({ id: z.uuid() });
const memberParams = z.object({ email: emailSchema });

export const mine = endpointIn(signedIn, 'GET /sso/me/organization', "The caller's organization: name, role, members, and pending invitations for owners and admins", {
  response: myOrganizationSchema, errors: ['organizations.not_member'],
});

export const invite = endpointIn(managers, 'POST /sso/me/organization/invitations', 'Invite an email to the organization with a role; a link valid 7 days is mailed', {
  body: inviteRequestSchema, status: 201, response: organizationInvitationSchema,
  errors: ['organizations.already_member', '7015', 'rate_limited'],
});

export const invitations = endpointIn(managers, 'GET /sso/me/organization/invitations', 'Pending invitations of the organization (owners and admins)', {
  response: z.array(organizationInvitationSchema),
});

export const resendInvitation = endpointIn(managers, 'POST /sso/me/organization/invitations/{id}/resend', 'Mail a pending invitation again with a new link (the old link stops working), valid 7 days from now', {
  params: invitationParams, response: organizationInvitationSchema, errors: ['organizations.invitation_not_found', 'rate_limited'],
});

export const revokeInvitation = endpointIn(managers, 'DELETE /sso/me/organization/invitations/{id}', 'Withdraw a pending invitation', {
  params: invitationParams, response: null, errors: ['organizations.invitation_not_found'],
});

export const changeRole = endpointIn(managers, 'PUT /sso/me/organization/members/{email}/role', "Change a member's role (owners: any; admins: between member and admin)", {
  params: memberParams, body: changeRoleRequestSchema, response: null,
  errors: ['organizations.member_not_found', 'organizations.last_owner'],
});

export const removeMember = endpointIn(managers, 'DELETE /sso/me/organization/members/{email}', 'Remove a member (owners: anyone; admins: members and admins)', {
  params: memberParams, response: null, errors: ['organizations.member_not_found', 'organizations.last_owner'],
});

export const leave = endpointIn(signedIn, 'POST /sso/me/organization/leave', 'Leave the organization (not as its last owner)', {
  response: null, errors: ['organizations.not_member', 'organizations.last_owner'],
});

export const acceptInvitation = endpointIn(signedIn, 'POST /sso/me/organization/invitations/accept', 'Accept an invitation mailed to the signed-in account: join the organization', {
  body: invitationTokenRequestSchema, response: invitationAcceptedSchema,
  errors: [
    'organizations.invitation_invalid',
    'organizations.invitation_expired',
    'organizations.invitation_revoked',
    'organizations.invitation_used',
    'organizations.invitation_other_person',
    '7015',
  ],
});

export const previewInvitation = endpointIn(anyone, 'POST /sso/organization-invitations/preview', 'What an invitation link is for: the organization, the invited email, its status, whether the email has an account', {
  body: invitationTokenRequestSchema, response: invitationPreviewSchema, errors: ['organizations.invitation_invalid', 'rate_limited'],
});

export const claimForSignUp = endpointIn(anyone, 'POST /sso/organization-invitations/sign-up', 'The invited person signed up from the link: the account joins the organization once activated', {
  body: invitationTokenRequestSchema, response: null,
  errors: ['organizations.invitation_invalid', 'organizations.invitation_expired', 'organizations.invitation_revoked', 'organizations.invitation_used', 'rate_limited'],
});

/** Organizations: roles, members, invitations. 7015 (an email in an enterprise) is billing's. */
export const organizationErrors = {
  'organizations.not_member': { status: 404, message: 'Your account is not in any enterprise' },
  'organizations.forbidden': { status: 403, message: "Your role in the organization doesn't allow this" },
  'organizations.last_owner': { status: 409, message: 'The organization needs at least one owner. Make another member an owner first' },
  'organizations.member_not_found': { status: 404, message: '{email} is not a member of your organization' },
  'organizations.already_member': { status: 409, message: '{email} is already a member of your organization' },
  'organizations.invitation_not_found': { status: 404, message: 'This invitation is no longer pending' },
  'organizations.invitation_invalid': { status: 404, message: 'This invitation link is not valid' },
  'organizations.invitation_expired': { status: 410, message: 'This invitation has expired. Ask the organization for a new one' },
  'organizations.invitation_revoked': { status: 410, message: 'This invitation was withdrawn by the organization' },
  'organizations.invitation_used': { status: 409, message: 'This invitation has already been accepted' },
  'organizations.invitation_other_person': { status: 403, message: 'This invitation was sent to another email address. Sign in with the invited email to accept it' },
} as const;

/** Moderator invitations of a product's websites (modules/moderators). */
export const moderatorErrors = {
  'moderators.not_found': { status: 404, message: 'This moderator or invitation does not exist' },
  'moderators.invitation_invalid': { status: 404, message: 'This invitation link is not valid' },
  'moderators.invitation_expired': { status: 410, message: 'This invitation has expired. Ask the website owner for a new one' },
  'moderators.invitation_revoked': { status: 410, message: 'This invitation was withdrawn by the website owner' },
  'moderators.invitation_used': { status: 409, message: 'This invitation has already been accepted' },
  'moderators.invitation_other_person': { status: 403, message: 'This invitation was sent to another email address. Sign in with the invited email to accept it' },
} as const;

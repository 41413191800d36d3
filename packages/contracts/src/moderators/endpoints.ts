import {
  moderatorInvitationAcceptedSchema,
  moderatorInvitationPreviewSchema,
  moderatorInviteRequestSchema,
  moderatorListSchema,
  moderatorParamsSchema,
  moderatorSchema,
  moderatorTokenRequestSchema,
  websiteNotificationRequestSchema,
  websiteNotificationResultSchema,
  websiteParamsSchema,
} from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/**
 * Website moderators. The `/products/websites/...` calls are a product's back end's:
 * `Authorization: Bearer <access token>` from the client-credentials grant of its first-party
 * client with the `moderators` scope (no token or an unknown one: 401; without the scope: 403).
 * Each product sees only its own websites' moderators. Declared `public` because no session or
 * API key reaches them: the route checks the product's token itself.
 */
const { anyone, signedIn } = endpointGroups('moderators');
const productErrors = ['unauthorized', 'forbidden'] as const;
const refusals = ['moderators.invitation_invalid', 'moderators.invitation_expired', 'moderators.invitation_revoked', 'moderators.invitation_used'] as const;

export const invite = endpointIn(anyone, 'POST /products/websites/{website_id}/moderators', "Invites an email to moderate one of the product's websites and mails the link (product's client-credentials token, scope moderators). Idempotent per product, website and email: a live invitation or moderator is answered as it is (200); a new one is 201; an expired one gets a new link", {
  params: websiteParamsSchema, body: moderatorInviteRequestSchema, status: 201, response: moderatorSchema,
  errors: [...productErrors, 'rate_limited'],
});

export const list = endpointIn(anyone, 'GET /products/websites/{website_id}/moderators', "The website's moderators and pending invitations with their status (revoked ones are left out) (product's client-credentials token, scope moderators)", {
  params: websiteParamsSchema, response: moderatorListSchema, errors: [...productErrors],
});

export const revoke = endpointIn(anyone, 'DELETE /products/websites/{website_id}/moderators/{moderator_id}', "Withdraws an invitation or removes a moderator: its link stops working and it receives the website's notifications no more (product's client-credentials token, scope moderators)", {
  params: moderatorParamsSchema, response: null, errors: [...productErrors, 'moderators.not_found'],
});

export const notify = endpointIn(anyone, 'POST /products/websites/{website_id}/notifications', "A security-analysis notification of the website, stored for each of its accepted moderators (product's client-credentials token, scope moderators)", {
  params: websiteParamsSchema, body: websiteNotificationRequestSchema, response: websiteNotificationResultSchema,
  errors: [...productErrors],
});

export const preview = endpointIn(anyone, 'POST /sso/moderator-invitations/preview', 'What a moderator invitation link is for: the website, the product, the invited email, its status, whether the email has an account', {
  body: moderatorTokenRequestSchema, response: moderatorInvitationPreviewSchema, errors: ['moderators.invitation_invalid', 'rate_limited'],
});

export const accept = endpointIn(signedIn, 'POST /sso/me/moderator-invitations/accept', 'Accept a moderator invitation mailed to the signed-in account (single use)', {
  body: moderatorTokenRequestSchema, response: moderatorInvitationAcceptedSchema,
  errors: [...refusals, 'moderators.invitation_other_person'],
});

export const claimForSignUp = endpointIn(anyone, 'POST /sso/moderator-invitations/sign-up', 'The invited person signs up from the link: the account becomes a moderator once activated', {
  body: moderatorTokenRequestSchema, response: null, errors: [...refusals, 'rate_limited'],
});

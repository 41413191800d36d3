import { authEndpoints, billingEndpoints, moderatorEndpoints, organizationEndpoints, type SignUpRequest } from '@portal/contracts';
import { call } from '../../../lib/api';

/** The address the activation mail went to (the same answer for a known address). */
export const signUp = (body: SignUpRequest) => call(authEndpoints.signUp, { body }, { handle: [400, 429] });

/** With the mailed link's token. */
export const activate = (token: string) => call(authEndpoints.activate, { body: { token } }, { handle: [400, 404, 429] });

/** An AppSumo license code (/confirmation/app/:token), for the signed-in person. */
export const redeemLicense = (token: string) => call(billingEndpoints.redeemLicense, { body: { token } }, { handle: [400, 401] });

/** An organization invitation's link at /register/:id: what it is for (failures are the page's message). */
export const previewInvitation = (token: string) => call(organizationEndpoints.previewInvitation, { body: { token } }, { handle: 'all' });

/** Signing up from an invitation: the account joins the organization once activated. */
export const claimInvitation = (token: string) => call(organizationEndpoints.claimForSignUp, { body: { token } }, { handle: [404, 409, 410, 429] });

/** A website moderator invitation's link at /register/:id (tokens with MODERATOR_TOKEN_PREFIX). */
export const previewModeratorInvitation = (token: string) => call(moderatorEndpoints.preview, { body: { token } }, { handle: 'all' });

/** Signing up from a moderator invitation: the account is a moderator once activated. */
export const claimModeratorInvitation = (token: string) => call(moderatorEndpoints.claimForSignUp, { body: { token } }, { handle: [404, 409, 410, 429] });

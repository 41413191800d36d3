import { z } from 'zod';
import { emailSchema, messages } from '../auth/schemas';
import { invitationStatuses } from '../organizations/schemas';
import { languageSchema } from '../resources/schemas';

/**
 * Moderators of a product's websites (the spec's permissions: "moderator of a website
 * (receives security-analysis notifications)"). A product's back end (client-credentials token
 * with the `moderators` scope) invites people by email to moderate one of its websites; the
 * mailed link accepts (an account) or signs up (none); accepted moderators receive the
 * website's security-analysis notifications the product posts.
 */

/** The OAuth scope a product's client asks for in its client-credentials grant to call these endpoints. */
export const MODERATORS_SCOPE = 'moderators';

/** Days a moderator invitation link stays valid. */
export const MODERATOR_INVITATION_VALID_DAYS = 7;

/** Moderator invitation tokens carry this prefix: /register/:id tells them from organization invitations and plan names. */
export const MODERATOR_TOKEN_PREFIX = 'mod-';

/** A website's id as the product knows it. */
export const websiteIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'Enter a website id of 1 to 128 letters, digits, dots, dashes, colons or underscores');
export const websiteParamsSchema = z.object({ website_id: websiteIdSchema });
export const moderatorParamsSchema = z.object({ website_id: websiteIdSchema, moderator_id: z.uuid() });

/** The product invites an email to moderate a website: the name or domain it shows, and the mail's language when the email has no account. */
export const moderatorInviteRequestSchema = z.object({
  email: emailSchema,
  website_name: z.string().trim().min(1, messages.blank).max(200),
  language: languageSchema.optional(),
});
export type ModeratorInviteRequest = z.infer<typeof moderatorInviteRequestSchema>;

export const moderatorSchema = z.object({
  id: z.uuid(),
  website_id: z.string(),
  website_name: z.string(),
  email: z.string(),
  status: z.enum(invitationStatuses),
  /** The account's id (`sub` of its ID tokens) once accepted. */
  user_id: z.string().nullable(),
  invited_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
});
export type Moderator = z.infer<typeof moderatorSchema>;
export const moderatorListSchema = z.object({ items: z.array(moderatorSchema) });

/** A security-analysis notification of a website, for each of its accepted moderators. */
export const websiteNotificationRequestSchema = z.object({
  title: z.string().trim().min(1, messages.blank).max(200),
  body: z.string().trim().max(2000).optional(),
  /** The product's own id of the analysis (idempotency is the product's: each call notifies). */
  report_id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/).optional(),
});
export const websiteNotificationResultSchema = z.object({ delivered: z.number().int().nonnegative() });

/** A moderator invitation link's token. */
export const moderatorTokenRequestSchema = z.object({ token: z.string().trim().min(20).max(200) });

/** What the link shows before anyone signs in. */
export const moderatorInvitationPreviewSchema = z.object({
  website_name: z.string(),
  /** The inviting product's display name (its service scope's). */
  product: z.string(),
  email: z.string(),
  status: z.enum(invitationStatuses),
  has_account: z.boolean(),
});
export type ModeratorInvitationPreview = z.infer<typeof moderatorInvitationPreviewSchema>;
export const moderatorInvitationAcceptedSchema = z.object({ website_name: z.string(), product: z.string() });

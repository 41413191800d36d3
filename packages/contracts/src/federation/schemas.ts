import { z } from 'zod';
import { codeSchema, emailSchema, fullNameSchema, messages } from '../auth/schemas';
import { languageSchema } from '../resources/schemas';
import { socialProviderIds } from './providers';
export type { SocialProviderId } from './providers';

export const socialProviderIdSchema = z.enum(socialProviderIds);

export const socialProviderParamsSchema = z.object({ provider: socialProviderIdSchema });

export const socialStartRequestSchema = z.object({
  /** `link`: add this provider to the signed-in account (security page); needs a recent sign-in. */
  intent: z.enum(['sign_in', 'link']).default('sign_in'),
});
/** Where to send the browser: the provider's authorization page (state, nonce and PKCE are bound to this browser by a cookie). */
export const socialStartResponseSchema = z.object({ url: z.string() });

/** What `/callback` received from the provider. */
export const socialAuthorizeRequestSchema = z.object({
  code: z.string().min(1).max(4096),
  state: z.string().min(1).max(512),
  /** The issuer the provider named in its answer (RFC 9207), passed on when it sent one. */
  iss: z.string().max(2048).optional(),
});

/** No account has this identity yet: `/create-user` finishes the sign-up with this token. */
export const socialSignUpOfferSchema = z.object({
  signup_required: z.literal(true),
  signup_token: z.string(),
  provider: socialProviderIdSchema,
  email: z.string().nullable(),
  email_verified: z.boolean(),
  full_name: z.string(),
});
export type SocialSignUpOffer = z.infer<typeof socialSignUpOfferSchema>;

export const socialLinkedSchema = z.object({ linked: z.literal(true), provider: socialProviderIdSchema });

export const socialSignUpRequestSchema = z.object({
  signup_token: z.string().min(1).max(128),
  full_name: fullNameSchema,
  email: emailSchema,
  accept_terms: z.literal(true, { error: messages.termsRequired }),
  language: languageSchema.optional(),
});

/** The email was not proven by the provider: a code was mailed to it. */
export const socialVerificationRequiredSchema = z.object({ verification_required: z.literal(true), email: z.string() });

export const socialSignUpVerifyRequestSchema = z.object({
  signup_token: z.string().min(1).max(128),
  code: codeSchema,
});

export const linkedIdentitySchema = z.object({
  provider: socialProviderIdSchema,
  email: z.string().nullable(),
  linked_at: z.string(),
});
export const linkedIdentitiesSchema = z.object({
  identities: z.array(linkedIdentitySchema),
  /** Providers this brand offers that the account could link. */
  available: z.array(socialProviderIdSchema),
});
export type LinkedIdentities = z.infer<typeof linkedIdentitiesSchema>;

import { z } from 'zod';

/** The SSO identifier's form: letters, digits and dashes (case-insensitive; stored lower-cased). */
export const SSO_IDENTIFIER_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** What /login/sso sends: the organization's SSO identifier, or an email whose domain it verified. */
export const companySsoStartRequestSchema = z.object({
  identifier: z.string().trim().min(1).max(254),
});
/** Where to send the browser: the organization's identity provider. */
export const companySsoStartResponseSchema = z.object({ url: z.string(), protocol: z.enum(['oidc', 'saml']) });

/** What /sso/redirect received: an OpenID Connect code and state, or the one-time code the SAML ACS handed over. */
export const companySsoFinishRequestSchema = z.union([
  z.object({ code: z.string().min(1).max(4096), state: z.string().min(1).max(512), iss: z.string().max(2048).optional() }),
  z.object({ handoff: z.string().min(1).max(128) }),
]);
export type CompanySsoFinishRequest = z.infer<typeof companySsoFinishRequestSchema>;

export const companySsoSamlParamsSchema = z.object({ identifier: z.string().regex(SSO_IDENTIFIER_PATTERN).max(63) });

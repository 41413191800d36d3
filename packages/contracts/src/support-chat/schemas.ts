import { z } from 'zod';

/** GET /sso/me/chatwoot and GET /{product}_platform/pm/users/me/chatwoot: Chatwoot identity validation. */
export const chatwootIdentitySchema = z.object({
  identifier: z.string(),
  name: z.string(),
  email: z.string(),
  language_override: z.string(),
  /** HMAC-SHA256 of identifier with the configured secret. */
  user_hash: z.string(),
});

import { z } from 'zod';
import { captchaField, emailSchema, fullNameSchema, identifierSchema, messages } from '../auth/schemas';

// Passkeys (the spec names the option calls). WebAuthn JSON is passed through as
// @simplewebauthn produces and consumes it; the server checks it fully.
export const webauthnAlgorithmsSchema = z.array(z.enum(['es256', 'rs256'])).min(1).default(['es256', 'rs256']);
const webauthnJson = z.record(z.string(), z.unknown());

/** POST /sso/users/me/webauthn/enable/options {algorithms} → creation options JSON. */
export const passkeyEnableOptionsRequestSchema = z.object({ algorithms: webauthnAlgorithmsSchema });
/** POST /sso/users/me/webauthn/enable {response, name?} → passkey. */
export const passkeyEnableRequestSchema = z.object({ response: webauthnJson, name: z.string().trim().min(1).max(60).optional() });
/** POST /sso/users/webauthn/auth/options {username?} → request options JSON (discoverable credentials). */
export const passkeyAuthOptionsRequestSchema = z.object({ username: identifierSchema.optional() });
/** POST /sso/users/webauthn/auth {username?, response} → {token}. */
export const passkeyAuthRequestSchema = z.object({ username: identifierSchema.optional(), response: webauthnJson });
/** POST /sso/users/webauthn/register/options {algorithms, email, full_name} → creation options JSON. */
export const passkeyRegisterOptionsRequestSchema = z.object({ algorithms: webauthnAlgorithmsSchema, email: emailSchema, full_name: fullNameSchema, captcha: captchaField });
/** POST /sso/users/webauthn/register {response} → 201 {email}; the account is activated by mail as with a password. */
export const passkeyRegisterRequestSchema = z.object({ response: webauthnJson });

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  device_type: z.string().nullable(),
  backed_up: z.boolean(),
});
/** GET /sso/users/me/webauthn; PUT /sso/users/me/webauthn/{id} {name}; DELETE /sso/users/me/webauthn/{id}. */
export const passkeyListSchema = z.array(passkeySchema);
export const passkeyRenameRequestSchema = z.object({ name: z.string().trim().min(1, messages.blank).max(60) });

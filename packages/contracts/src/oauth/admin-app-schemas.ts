import { z } from 'zod';
import { adminReasonSchema } from '../operators/roles';

/**
 * Apps in the operators' console: the products' own clients (first-party, read-only: they come
 * from their checked-in file) and outside apps (registered by operators, stored in the database).
 */

/** The scopes a person may grant an outside app. `openid` is always among an app's scopes. */
export const outsideAppScopes = ['openid', 'offline_access', 'email', 'profile', 'plan'] as const;
export type OutsideAppScope = (typeof outsideAppScopes)[number];

/** The grant types an outside app may use; the code flow is always one of them. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const outsideAppGrantTypes = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT] as const;
export type OutsideAppGrantType = (typeof outsideAppGrantTypes)[number];

/** A client id as the provider issues them (a product's name, `app_` and base64url). */
export const appClientIdSchema = z.string().regex(/^[\w-]{1,128}$/);

export const adminAppSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  /** `first_party`: a product's own client, read-only here. */
  kind: z.enum(['first_party', 'outside']),
  /** A public client (single-page or native app) has no secret and uses PKCE only. */
  public: z.boolean(),
  /** Whether a secret is set; the secret itself is never answered after it was shown once. */
  has_secret: z.boolean(),
  disabled: z.boolean(),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  backchannel_logout_uri: z.string().nullable(),
  site: z.string().nullable(),
  logo_uri: z.string().nullable(),
  scopes: z.array(z.string()),
  grant_types: z.array(z.string()),
  /** A first-party client's product (its service scope). */
  service_scope: z.string().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  disabled_at: z.string().nullable(),
});
export type AdminApp = z.infer<typeof adminAppSchema>;

export const adminAppListSchema = z.object({ apps: z.array(adminAppSchema) });

/** A redirect URI: any scheme here (native apps use their own); the provider's rules are checked when it is saved. */
const uri = z.url().max(2000);
/** A web address (http or https: never javascript: or data:); the server's own requests need public https on top (egress guard). */
const webUrl = z.url({ protocol: /^https?$/ }).max(2000);

/** What an operator sets on an outside app. The provider's redirect URI rules are checked on top (admin.app_settings_invalid). */
export const adminAppSettingsSchema = z.object({
  name: z.string().trim().min(1).max(100),
  redirect_uris: z.array(uri).min(1).max(20),
  post_logout_redirect_uris: z.array(uri).max(20),
  /** Where the server posts logout tokens: it must pass the egress guard (public https). */
  backchannel_logout_uri: webUrl.nullable(),
  site: webUrl.nullable(),
  scopes: z
    .array(z.enum(outsideAppScopes))
    .min(1)
    .refine((scopes) => scopes.includes('openid'), 'openid is always one of an app’s scopes'),
  grant_types: z
    .array(z.enum(outsideAppGrantTypes))
    .min(1)
    .refine((grants) => grants.includes('authorization_code'), 'authorization_code is always one of an app’s grant types'),
});
export type AdminAppSettings = z.infer<typeof adminAppSettingsSchema>;

export const registerAppRequestSchema = adminAppSettingsSchema.extend({
  post_logout_redirect_uris: z.array(uri).max(20).default([]),
  backchannel_logout_uri: webUrl.nullable().default(null),
  site: webUrl.nullable().default(null),
  scopes: adminAppSettingsSchema.shape.scopes.default([...outsideAppScopes]),
  grant_types: adminAppSettingsSchema.shape.grant_types.default(['authorization_code', 'refresh_token']),
  /** A single-page or native app: no secret, PKCE only. Fixed at registration. */
  public: z.boolean().default(false),
  reason: adminReasonSchema,
});
export type RegisterAppRequest = z.input<typeof registerAppRequestSchema>;

/** An edit: the fields given replace the app's; the others stay. */
export const updateAppRequestSchema = adminAppSettingsSchema.partial().extend({ reason: adminReasonSchema });
export type UpdateAppRequest = z.input<typeof updateAppRequestSchema>;

/** The secret is in this answer only: it is stored as a hash and never shown again. */
export const appSecretSchema = z.object({ client_id: z.string(), client_secret: z.string() });
export type AppSecret = z.infer<typeof appSecretSchema>;

export const registeredAppSchema = z.object({ app: adminAppSchema, client_secret: z.string().nullable() });
export type RegisteredApp = z.infer<typeof registeredAppSchema>;

/** The largest logo file (its base64 is about a third longer). */
export const APP_LOGO_MAX_BYTES = 5 * 1024 * 1024;

/** A new logo: the file's bytes (base64), or an https address the server fetches once through the egress guard. */
export const setAppLogoRequestSchema = z
  .object({
    reason: adminReasonSchema,
    image_base64: z.base64().max(Math.ceil(APP_LOGO_MAX_BYTES / 3) * 4).optional(),
    url: webUrl.optional(),
  })
  .refine((body) => (body.image_base64 === undefined) !== (body.url === undefined), 'Give either image_base64 or url');
export type SetAppLogoRequest = z.input<typeof setAppLogoRequestSchema>;

export const appReasonRequestSchema = z.object({ reason: adminReasonSchema });

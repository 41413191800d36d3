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

/**
 * The organization's SSO settings screen (owners and admins). The OpenID Connect client secret
 * is write-only: the answer says only whether one is stored.
 */
export const companySsoDomainSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  /** How it was proved: `dns` (the TXT record) or `mail` (a mailed link to an admin address). */
  verified_by: z.string().nullable(),
  /** The TXT record to publish on the domain itself. */
  txt_record: z.string(),
});
export type CompanySsoDomain = z.infer<typeof companySsoDomainSchema>;

export const companySsoSettingsSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  /** The caller's email: a proof may be mailed to it when it is at the domain. */
  email: z.string(),
  identifier: z.string().nullable(),
  protocol: z.enum(['oidc', 'saml']).nullable(),
  oidc: z.object({ issuer: z.string(), client_id: z.string(), has_client_secret: z.boolean() }).nullable(),
  saml: z.object({ entity_id: z.string(), sso_url: z.string(), certificates: z.number().int() }).nullable(),
  require_sso: z.boolean(),
  /** What to register at the identity provider for this identifier (null before one is set). */
  registration: z
    .object({ oidc_redirect_uris: z.array(z.string()), saml_entity_id: z.string(), saml_acs_url: z.string() })
    .nullable(),
  domains: z.array(companySsoDomainSchema),
});
export type CompanySsoSettings = z.infer<typeof companySsoSettingsSchema>;

/** Set the identity provider: OpenID Connect (the secret may be left out to keep the stored one) or SAML 2.0 metadata. */
export const companySsoProviderRequestSchema = z.discriminatedUnion('protocol', [
  z.object({
    protocol: z.literal('oidc'),
    identifier: z.string().max(200),
    issuer: z.string().max(2048),
    client_id: z.string().max(1024),
    client_secret: z.string().max(4096).optional(),
  }),
  z.object({ protocol: z.literal('saml'), identifier: z.string().max(200), metadata_xml: z.string().max(500_000) }),
]);
export type CompanySsoProviderRequest = z.infer<typeof companySsoProviderRequestSchema>;

export const companySsoRequireRequestSchema = z.object({ require_sso: z.boolean() });
export const companySsoDomainRequestSchema = z.object({ domain: z.string().max(300) });
export const companySsoDomainParamsSchema = z.object({ domain: z.string().min(1).max(300) });

/**
 * The mailboxes a domain proof may be mailed to: the domain's role addresses, as certificate
 * authorities use them. Never the requester's own address, whatever its domain: anyone may
 * have a mailbox at a domain without controlling it.
 */
export const DOMAIN_PROOF_MAILBOXES = ['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'] as const;
export function domainProofAddresses(domain: string): string[] {
  return DOMAIN_PROOF_MAILBOXES.map((mailbox) => `${mailbox}@${domain}`);
}
/** Minutes a mailed domain proof code stays valid. */
export const DOMAIN_PROOF_VALID_MINUTES = 30;
export const companySsoProofMailRequestSchema = z.object({ address: z.string().max(320) });
export const companySsoProofMailResponseSchema = z.object({ address: z.string(), expires_at: z.string() });
export const companySsoProofCodeRequestSchema = z.object({ code: z.string().max(32) });

/** A company SSO link waiting for the account's owner to confirm it (kept in this browser, sealed). */
export const companySsoPendingLinkSchema = z.object({ organization_name: z.string(), email: z.string() });
export type CompanySsoPendingLink = z.infer<typeof companySsoPendingLinkSchema>;
/**
 * The link confirmed: linked and a member. `sso_required`: the organization requires SSO, so
 * the session that confirmed (not signed in by its IdP) has ended with the join; the person
 * signs in again through company SSO.
 */
export const companySsoLinkConfirmedSchema = companySsoPendingLinkSchema.extend({ sso_required: z.boolean() });
export type CompanySsoLinkConfirmed = z.infer<typeof companySsoLinkConfirmedSchema>;

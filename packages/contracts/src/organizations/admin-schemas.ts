import { z } from 'zod';
import { adminReasonSchema } from '../operators/roles';

/** Organizations as operators see them: search, members, domains and the SSO connection's status (never its secret). */

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

export const adminOrganizationSearchQuerySchema = z.object({
  /** Part of the name, a domain, a member's email, or the organization's id; empty lists the newest. */
  q: z.string().trim().max(254).optional(),
});

export const adminOrganizationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  admin_email: z.string(),
  members: z.number().int(),
  verified_domains: z.number().int(),
  sso: z.enum(['oidc', 'saml']).nullable(),
  created_at: z.string(),
});
export const adminOrganizationListSchema = z.object({ organizations: z.array(adminOrganizationSummarySchema) });

export const adminOrganizationParamsSchema = z.object({ id: uuid });

export const adminOrganizationMemberSchema = z.object({
  email: z.string(),
  user_id: z.string().nullable(),
  role: z.enum(['owner', 'admin', 'member']),
  joined_at: z.string(),
});

export const adminOrganizationDomainSchema = z.object({
  domain: z.string(),
  verified_at: z.string().nullable(),
  /** How: `dns`, `mailbox` or `operator` (verified by hand in the console). */
  verified_by: z.string().nullable(),
  claimed_at: z.string(),
});

export const adminOrganizationSsoSchema = z.object({
  kind: z.enum(['oidc', 'saml']),
  identifier: z.string(),
  /** The issuer (OpenID Connect) or the IdP's entity id (SAML). */
  idp: z.string().nullable(),
  require_sso: z.boolean(),
  updated_at: z.string(),
});

export const adminOrganizationSchema = adminOrganizationSummarySchema.extend({
  member_list: z.array(adminOrganizationMemberSchema),
  domains: z.array(adminOrganizationDomainSchema),
  sso_connection: adminOrganizationSsoSchema.nullable(),
});
export type AdminOrganization = z.infer<typeof adminOrganizationSchema>;

export const adminDomainParamsSchema = z.object({
  id: uuid,
  domain: z.string().trim().toLowerCase().min(1).max(253).regex(/^[a-z0-9.-]+$/),
});

export const adminVerifyDomainRequestSchema = z.object({ reason: adminReasonSchema });

import { z } from 'zod';
import { actorFields, keysetPageQueryFields } from '../fields';

/**
 * The organization audit log: what happened to an organization's members and its
 * membership, append-only. Security events are recorded by the server itself; membership and
 * role changes by the modules that make them.
 */
export const auditActions = [
  'sign_in',
  'sign_in_failed',
  'two_factor_enabled',
  'two_factor_disabled',
  'passkey_added',
  'passkey_removed',
  'member_invited',
  'member_joined',
  'member_removed',
  'member_left',
  'role_changed',
  'invitation_revoked',
  'sso_provider_set',
  'sso_provider_changed',
  'sso_required_changed',
  'sso_domain_added',
  'sso_domain_verified',
  'sso_domain_removed',
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** One entry: who did it (actor), to whom (target), from where, and the action's own details. */
export const auditEventSchema = z.object({
  id: z.string(),
  occurred_at: z.string(),
  action: auditActionSchema,
  ...actorFields,
  target_user_id: z.string().nullable(),
  target_email: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/**
 * The filters, as the query string carries them; the server checks them and answers a 400
 * naming the field (`audit.action_invalid`, `audit.date_invalid`, ...). `action` is one action
 * or several, comma-separated; `email` matches the actor or the target (part of the address,
 * case-insensitive); `from` and `to` are dates (`YYYY-MM-DD`, `to` inclusive) or ISO 8601 times.
 */
export const auditFilterQuerySchema = z.object({
  action: z.string().max(500).optional(),
  email: z.string().max(1000).optional(),
  from: z.string().max(100).optional(),
  to: z.string().max(100).optional(),
});
export type AuditFilterQuery = z.infer<typeof auditFilterQuerySchema>;

export const auditListQuerySchema = auditFilterQuerySchema.extend(keysetPageQueryFields);

export const auditEventListSchema = z.object({
  items: z.array(auditEventSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AuditEventList = z.infer<typeof auditEventListSchema>;

/** The roles that read an organization's audit log. */
export const auditReaderRoles = ['owner', 'admin'] as const;

/** An organization the signed-in user administers (owner or admin): what the menu needs. */
export const administeredOrganizationSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(auditReaderRoles) });
export const administeredOrganizationListSchema = z.object({ items: z.array(administeredOrganizationSchema) });
export type AdministeredOrganization = z.infer<typeof administeredOrganizationSchema>;

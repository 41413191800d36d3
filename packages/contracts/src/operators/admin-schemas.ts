import { z } from 'zod';
import { adminReasonSchema, adminScopeSchema, operatorRoleSchema } from './roles';
import { actorFields, keysetPageQueryFields } from '../fields';

/** The signed-in operator, for the console's shell (which pages to show). */
export const adminMeSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  full_name: z.string(),
  roles: z.array(operatorRoleSchema),
});
export type AdminMe = z.infer<typeof adminMeSchema>;

/** An operator in the owners' list: as the shell knows them, each role with when it was granted. */
export const operatorSchema = adminMeSchema.extend({ roles: z.array(z.object({ role: operatorRoleSchema, granted_at: z.string() })) });
export const operatorListSchema = z.array(operatorSchema);
export type Operator = z.infer<typeof operatorSchema>;

export const grantOperatorRequestSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  role: operatorRoleSchema,
  reason: adminReasonSchema,
});

export const revokeOperatorRequestSchema = z.object({ reason: adminReasonSchema });

export const operatorApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(adminScopeSchema),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export const operatorApiKeyListSchema = z.array(operatorApiKeySchema);
/** The key itself is in this answer only. */
export const createdOperatorApiKeySchema = operatorApiKeySchema.extend({ key: z.string() });
export type OperatorApiKey = z.infer<typeof operatorApiKeySchema>;

export const createOperatorApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(adminScopeSchema).min(1).max(20),
  expires_in_days: z.number().int().min(1).max(365).optional(),
  reason: adminReasonSchema,
});

export const revokeOperatorApiKeyRequestSchema = z.object({ reason: adminReasonSchema });

/** One entry of the operator audit log: who did what to which target, why, when, from where. */
export const operatorAuditEventSchema = z.object({
  id: z.string(),
  occurred_at: z.string(),
  ...actorFields,
  /** `session` or the operator API key's id. */
  via: z.string(),
  /** The endpoint: `POST /admin/operators`. */
  action: z.string(),
  summary: z.string(),
  target: z.record(z.string(), z.string()),
  reason: z.string(),
  ip: z.string().nullable(),
});
export type OperatorAuditEvent = z.infer<typeof operatorAuditEventSchema>;

export const operatorAuditFilterQuerySchema = z.object({
  /** Part of the operator's email. */
  actor: z.string().trim().max(254).optional(),
  /** Part of the action (`/admin/people`, `POST`). */
  action: z.string().trim().max(200).optional(),
  /** A target id (a path parameter's value), exactly. */
  target: z.string().trim().max(200).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export const operatorAuditListQuerySchema = operatorAuditFilterQuerySchema.extend(keysetPageQueryFields);
export const operatorAuditListSchema = z.object({
  events: z.array(operatorAuditEventSchema),
  next_cursor: z.string().nullable(),
});

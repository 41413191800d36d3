import { z } from 'zod';
import {
  adminMeSchema,
  createdOperatorApiKeySchema,
  createOperatorApiKeyRequestSchema,
  grantOperatorRequestSchema,
  operatorApiKeyListSchema,
  operatorAuditFilterQuerySchema,
  operatorAuditListQuerySchema,
  operatorAuditListSchema,
  operatorListSchema,
  operatorSchema,
  revokeOperatorApiKeyRequestSchema,
  revokeOperatorRequestSchema,
} from './admin-schemas';
import { endpoint } from '../endpoint';
import { operatorRoleSchema } from './roles';

/** Operators themselves: who they are, their roles, their API keys and the operator audit log. */
const tag = 'admin';
const anyOperator = ['owner', 'support', 'finance'] as const;

export const me = endpoint({
  method: 'GET',
  path: '/admin/me',
  tag,
  auth: { operator: anyOperator, adminScope: 'admin:dashboard' },
  summary: "The calling operator and their roles (the console's shell)",
  response: adminMeSchema,
});

export const listOperators = endpoint({
  method: 'GET',
  path: '/admin/operators',
  tag,
  auth: { operator: ['owner'], adminScope: 'admin:people' },
  summary: 'Every operator and their roles',
  response: operatorListSchema,
});

export const grantRole = endpoint({
  method: 'POST',
  path: '/admin/operators',
  tag,
  auth: { operator: ['owner'], adminScope: 'admin:people' },
  summary: 'Give an activated account an operator role',
  body: grantOperatorRequestSchema,
  status: 201,
  response: operatorSchema,
  errors: ['admin.account_not_found'],
});

export const revokeRole = endpoint({
  method: 'DELETE',
  path: '/admin/operators/{userId}/roles/{role}',
  tag,
  auth: { operator: ['owner'], adminScope: 'admin:people' },
  summary: "Take an operator role away; it stops the account's sessions and keys from acting as that role at once",
  params: z.object({ userId: z.uuid(), role: operatorRoleSchema }),
  body: revokeOperatorRequestSchema,
  response: null,
  errors: ['admin.not_found', 'admin.last_owner'],
});

/** Operator API keys: made and revoked from a session that proved a factor just now, never by a key. */
export const createApiKey = endpoint({
  method: 'POST',
  path: '/admin/api-keys',
  tag,
  auth: { operator: anyOperator, adminScope: 'admin:keys' },
  recentAuth: true,
  summary: 'Create an operator API key limited to admin scopes; the key is shown in this answer only',
  body: createOperatorApiKeyRequestSchema,
  status: 201,
  response: createdOperatorApiKeySchema,
  errors: ['admin.key_limit_reached'],
});

export const listApiKeys = endpoint({
  method: 'GET',
  path: '/admin/api-keys',
  tag,
  auth: { operator: anyOperator, adminScope: 'admin:keys' },
  summary: "The calling operator's API keys (never the keys themselves)",
  response: operatorApiKeyListSchema,
});

export const revokeApiKey = endpoint({
  method: 'DELETE',
  path: '/admin/api-keys/{id}',
  tag,
  auth: { operator: anyOperator, adminScope: 'admin:keys' },
  recentAuth: true,
  summary: "Revoke one of the calling operator's API keys",
  params: z.object({ id: z.uuid() }),
  body: revokeOperatorApiKeyRequestSchema,
  response: null,
  errors: ['admin.not_found'],
});

export const audit = endpoint({
  method: 'GET',
  path: '/admin/audit',
  tag,
  auth: { operator: ['owner'], adminScope: 'admin:audit' },
  summary: 'A page of the operator audit log, newest first, filtered by operator, action, target and dates',
  query: operatorAuditListQuerySchema,
  response: operatorAuditListSchema,
  errors: ['admin.cursor_invalid'],
});

export const auditCsv = endpoint({
  method: 'GET',
  path: '/admin/audit.csv',
  tag,
  auth: { operator: ['owner'], adminScope: 'admin:audit' },
  summary: 'The operator audit log with the same filters as a CSV file (RFC 4180, newest first, formulas neutralised)',
  query: operatorAuditFilterQuerySchema,
  response: 'binary',
});

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
import { endpointIn, operatorGroup } from '../endpoint';
import { operatorRoleSchema } from './roles';

/** Operators themselves: who they are, their roles, their API keys and the operator audit log. */
const allRoles = ['owner', 'support', 'finance'] as const;
const anyOperator = operatorGroup('admin:dashboard', allRoles);
const owners = operatorGroup('admin:people', ['owner']);
const keys = operatorGroup('admin:keys', allRoles);
const keysSensitive = { ...keys, recentAuth: true } as const;
const auditors = operatorGroup('admin:audit', ['owner']);

export const me = endpointIn(anyOperator, 'GET /admin/me', "The calling operator and their roles (the console's shell)", { response: adminMeSchema });

export const listOperators = endpointIn(owners, 'GET /admin/operators', 'Every operator and their roles', { response: operatorListSchema });

export const grantRole = endpointIn(owners, 'POST /admin/operators', 'Give an activated account an operator role', {
  body: grantOperatorRequestSchema, status: 201, response: operatorSchema, errors: ['admin.account_not_found'],
});

export const revokeRole = endpointIn(owners, 'DELETE /admin/operators/{userId}/roles/{role}', "Take an operator role away; it stops the account's sessions and keys from acting as that role at once", {
  params: z.object({ userId: z.uuid(), role: operatorRoleSchema }), body: revokeOperatorRequestSchema, response: null,
  errors: ['admin.not_found', 'admin.last_owner'],
});

/** Operator API keys: made and revoked from a session that proved a factor just now, never by a key. */
export const createApiKey = endpointIn(keysSensitive, 'POST /admin/api-keys', 'Create an operator API key limited to admin scopes; the key is shown in this answer only', {
  body: createOperatorApiKeyRequestSchema, status: 201, response: createdOperatorApiKeySchema, errors: ['admin.key_limit_reached'],
});

export const listApiKeys = endpointIn(keys, 'GET /admin/api-keys', "The calling operator's API keys (never the keys themselves)", {
  response: operatorApiKeyListSchema,
});

export const revokeApiKey = endpointIn(keysSensitive, 'DELETE /admin/api-keys/{id}', "Revoke one of the calling operator's API keys", {
  params: z.object({ id: z.uuid() }), body: revokeOperatorApiKeyRequestSchema, response: null, errors: ['admin.not_found'],
});

export const audit = endpointIn(auditors, 'GET /admin/audit', 'A page of the operator audit log, newest first, filtered by operator, action, target and dates', {
  query: operatorAuditListQuerySchema, response: operatorAuditListSchema, errors: ['admin.cursor_invalid'],
});

export const auditCsv = endpointIn(auditors, 'GET /admin/audit.csv', 'The operator audit log with the same filters as a CSV file (RFC 4180, newest first, formulas neutralised)', {
  query: operatorAuditFilterQuerySchema, response: 'binary',
});

import { z } from 'zod';
import { administeredOrganizationListSchema, auditEventListSchema, auditFilterQuerySchema, auditListQuerySchema } from './schemas';
import { endpoint } from '../endpoint';

/** The organization audit log: for the organization's owners and admins only. */
const tag = 'organizations';
const organizationParams = z.object({ organizationId: z.uuid() });

export const administered = endpoint({
  method: 'GET',
  path: '/organizations/administered',
  tag,
  auth: 'session',
  summary: 'The organizations the signed-in user administers (owner or admin): empty for everyone else',
  response: administeredOrganizationListSchema,
});

export const list = endpoint({
  method: 'GET',
  path: '/organizations/{organizationId}/audit-events',
  tag,
  auth: 'session',
  summary: "A page of the organization's audit log, newest first, filtered by action, person and dates (keyset paging)",
  params: organizationParams,
  query: auditListQuerySchema,
  response: auditEventListSchema,
  errors: ['audit.not_admin', 'audit.action_invalid', 'audit.date_invalid', 'audit.date_range_invalid', 'audit.email_invalid', 'audit.cursor_invalid'],
});

export const exportCsv = endpoint({
  method: 'GET',
  path: '/organizations/{organizationId}/audit-events.csv',
  tag,
  auth: 'session',
  summary: "The organization's audit log with the same filters as a CSV file (RFC 4180, newest first, streamed)",
  params: organizationParams,
  query: auditFilterQuerySchema,
  response: 'binary',
  errors: ['audit.not_admin', 'audit.action_invalid', 'audit.date_invalid', 'audit.date_range_invalid', 'audit.email_invalid'],
});

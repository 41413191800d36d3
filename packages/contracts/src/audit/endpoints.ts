import { z } from 'zod';
import { administeredOrganizationListSchema, auditEventListSchema, auditFilterQuerySchema, auditListQuerySchema } from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** The organization audit log: for the organization's owners and admins only. */
const { signedIn } = endpointGroups('organizations');
const organizationParams = z.object({ organizationId: z.uuid() });

export const administered = endpointIn(signedIn, 'GET /organizations/administered', 'The organizations the signed-in user administers (owner or admin): empty for everyone else', {
  response: administeredOrganizationListSchema,
});

export const list = endpointIn(signedIn, 'GET /organizations/{organizationId}/audit-events', "A page of the organization's audit log, newest first, filtered by action, person and dates (keyset paging)", {
  params: organizationParams, query: auditListQuerySchema, response: auditEventListSchema,
  errors: ['audit.not_admin', 'audit.action_invalid', 'audit.date_invalid', 'audit.date_range_invalid', 'audit.email_invalid', 'audit.cursor_invalid'],
});

export const exportCsv = endpointIn(signedIn, 'GET /organizations/{organizationId}/audit-events.csv', "The organization's audit log with the same filters as a CSV file (RFC 4180, newest first, streamed)", {
  params: organizationParams, query: auditFilterQuerySchema, response: 'binary',
  errors: ['audit.not_admin', 'audit.action_invalid', 'audit.date_invalid', 'audit.date_range_invalid', 'audit.email_invalid'],
});

import {
  adminDomainParamsSchema,
  adminOrganizationDomainSchema,
  adminOrganizationListSchema,
  adminOrganizationParamsSchema,
  adminOrganizationSchema,
  adminOrganizationSearchQuerySchema,
  adminVerifyDomainRequestSchema,
} from './admin-schemas';
import { endpointIn, operatorGroup } from '../endpoint';

/** Organizations in the operators' console: owners and support. */
const staff = operatorGroup('admin:organizations', ['owner', 'support']);
const staffSensitive = { ...staff, recentAuth: true } as const;

export const searchOrganizations = endpointIn(staff, 'GET /admin/organizations', 'Organizations whose name, id, domain or a member email matches (the newest 50)', {
  query: adminOrganizationSearchQuerySchema, response: adminOrganizationListSchema,
});

export const getOrganization = endpointIn(staff, 'GET /admin/organizations/{id}', 'An organization with its members, domains and SSO connection (never its client secret)', {
  params: adminOrganizationParamsSchema, response: adminOrganizationSchema, errors: ['admin.not_found'],
});

export const verifyDomainByHand = endpointIn(staffSensitive, 'POST /admin/organizations/{id}/domains/{domain}/verify', 'Marks a claimed domain verified by an operator (with a reason, in the operator audit log): free-mail domains and public suffixes are refused, and a domain another organization verified stays theirs', {
  params: adminDomainParamsSchema, body: adminVerifyDomainRequestSchema, response: adminOrganizationDomainSchema,
  errors: ['admin.not_found', 'sso.domain_not_found', 'sso.domain_taken', 'sso.domain_free_mail', 'sso.domain_public_suffix'],
});

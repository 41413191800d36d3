import {
  adminDomainParamsSchema,
  adminOrganizationDomainSchema,
  adminOrganizationListSchema,
  adminOrganizationParamsSchema,
  adminOrganizationSchema,
  adminOrganizationSearchQuerySchema,
  adminVerifyDomainRequestSchema,
} from './admin-schemas';
import { endpoint } from '../endpoint';

/** Organizations in the operators' console: owners and support. */
const tag = 'admin';
const auth = { operator: ['owner', 'support'], adminScope: 'admin:organizations' } as const;

export const searchOrganizations = endpoint({
  method: 'GET',
  path: '/admin/organizations',
  tag,
  auth,
  summary: 'Organizations whose name, id, domain or a member email matches (the newest 50)',
  query: adminOrganizationSearchQuerySchema,
  response: adminOrganizationListSchema,
});

export const getOrganization = endpoint({
  method: 'GET',
  path: '/admin/organizations/{id}',
  tag,
  auth,
  summary: 'An organization with its members, domains and SSO connection (never its client secret)',
  params: adminOrganizationParamsSchema,
  response: adminOrganizationSchema,
  errors: ['admin.not_found'],
});

export const verifyDomainByHand = endpoint({
  method: 'POST',
  path: '/admin/organizations/{id}/domains/{domain}/verify',
  tag,
  auth,
  recentAuth: true,
  summary:
    'Marks a claimed domain verified by an operator (with a reason, in the operator audit log): free-mail domains and public suffixes are refused, and a domain another organization verified stays theirs',
  params: adminDomainParamsSchema,
  body: adminVerifyDomainRequestSchema,
  response: adminOrganizationDomainSchema,
  errors: ['admin.not_found', 'sso.domain_not_found', 'sso.domain_taken', 'sso.domain_free_mail', 'sso.domain_public_suffix'],
});

/** The organizations module: companies (enterprises) and their members by email. */
export { createOrganizationService, type OrganizationService } from './service';
export type { OrganizationRow } from './queries';

import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { organizationQueries } from './queries';

export type OrganizationService = ReturnType<typeof createOrganizationService>;

/**
 * Organizations (enterprises), minimal: a company, its admin and members by email. An email
 * belongs to at most one organization (spec section 6: an email in an enterprise cannot start
 * a business trial). Social login and company SSO will hang their settings on these rows.
 */
export function createOrganizationService(deps: { db: Database; clock: Clock }) {
  const queries = organizationQueries(deps.db);
  return {
    membershipOf: (email: string) => queries.membershipOf(email),
    create: (input: { name: string; adminEmail: string; adminUserId: string | null }) => queries.createWithAdmin(input, deps.clock.now()),
    addMember: (organizationId: string, email: string, userId: string | null = null) => queries.addMember(organizationId, email, userId, deps.clock.now()),
  };
}

/** The organizations module: companies (enterprises), their members by email and roles, invitations, and their on-premise deployments. */
export { createOrganizationService, deploymentUrl, OrganizationAdminError, type MemberAccounts, type OrganizationService } from './service';
export { createMembershipService, type MembershipDependencies, type MembershipService } from './membership';
export { roleOfUser, type MemberJoinedHook, type MembershipChange, type MembershipChangeHook } from './members';
export { administeredOrganizations, memberAccounts, organizationOfMember } from './lookups';
export { rowsOfAccount } from './member-rows';
export { membershipRoutes, organizationRoutes } from './routes';
export type { DeploymentRow, OrganizationRow } from './queries';
export type { OrganizationRole } from '@portal/contracts';
export { organizationConsole, type OrganizationConsole, type OrganizationSsoView } from './admin-console';
export { organizationAdminRoutes } from './admin-routes';
export { membershipModule, organizationsModule, type MembershipMade, type OrganizationsMade } from './module';

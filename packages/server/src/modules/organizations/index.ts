/** The organizations module: companies (enterprises), their members by email, and their on-premise deployments. */
export { createOrganizationService, deploymentUrl, OrganizationAdminError, type MemberAccounts, type OrganizationService } from './service';
export { organizationRoutes } from './routes';
export type { DeploymentRow, OrganizationRow } from './queries';

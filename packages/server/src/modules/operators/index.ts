/** The operators module: operator roles, the admin endpoints' guard, operator API keys and the operator audit log. */
export { createOperatorService, roleAllows, type OperatorService } from './service';
export { installOperatorAccess, operatorOf, type OperatorCaller } from './guard';
export { operatorAdminRoutes } from './admin-routes';
export { grantConfiguredOwners } from './bootstrap';
export { operatorsModule } from './module';

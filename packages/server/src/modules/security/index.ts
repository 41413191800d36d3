/** The security module: the overview, password change and device activity. */
export { createSecurityService, type SecurityService } from './service';
export { securityRoutes } from './routes';
export { securityModule } from './module';

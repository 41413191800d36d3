/** The federation module: sign-in with outside identity providers (social login), linked to accounts through the one sign-in pipeline. */
export { createFederationService, type FederationService } from './service';
export { federationRoutes, socialFormPostRoute } from './routes';
export { socialSignupCodeMail } from './mail';
export { openIdRelyingParty, type AuthorizationSecrets } from './providers';
export { federationModule } from './module';

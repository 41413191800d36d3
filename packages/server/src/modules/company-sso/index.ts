/** The company-sso module: an organization's identity provider (OpenID Connect or SAML 2.0), its verified domains, just-in-time membership and require-SSO. */
export { createCompanySsoService, CompanySsoAdminError, normalizeIdentifier, type CompanySsoService } from './service';
export { companySsoRoutes, SAML_ACS_PREFIX } from './routes';
export { dnsTxtLookup, TXT_PREFIX } from './domains';
export { companySsoModule } from './module';

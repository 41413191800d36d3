/**
 * Operator commands of organizations (enterprises), against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run organizations -- create <name> --admin <email>
 *       a new organization with its admin as first member
 *   npm run organizations -- add-member <organization name or admin email> <email>
 *   npm run organizations -- role <organization name or admin email> <email> owner|admin|member
 *       (both recorded in the organization's audit log, by the operator)
 *   npm run organizations -- onpremise <organization name or admin email> --base-api https://... --login-url https://...
 *                                      [--inactive] [--require-passwordless]
 *       registers (or updates) the organization's on-premise deployment: its members signing in
 *       on the password manager's page are sent to --login-url (POST .../pm/users/onpremise/prelogin)
 *
 * Company SSO (modules/company-sso):
 *   npm run organizations -- sso <org> --identifier <id> --oidc-issuer https://... --client-id <id>
 *       OpenID Connect; the client secret is read from the COMPANY_SSO_CLIENT_SECRET variable
 *       (or --client-secret-file <file>), never from the command line; it is stored sealed
 *   npm run organizations -- sso <org> --identifier <id> --saml-metadata <file.xml>
 *       SAML 2.0 from the IdP's metadata (entity id, SSO URL, signing certificates)
 *   npm run organizations -- sso <org> --require-sso on|off
 *       members may sign in only through SSO (password and email code refused)
 *   npm run organizations -- sso <org>
 *       shows the connection, its domains and the URLs to register at the IdP
 *   npm run organizations -- domain add <org> <domain>      the TXT record to publish
 *   npm run organizations -- domain verify <org> <domain>   looks it up (COMPANY_SSO_DNS_SERVER, or the system's DNS)
 *
 * With PORTAL_URL and OPERATOR_API_KEY (cli/admin-api.ts) `sso <org>` reads through the running
 * server's admin API (key scope admin:organizations); the admin API changes no organization, so
 * every other command refuses there and says where it can run.
 */
import { organizationsTool } from './cli/organizations-tool';
import { runTool } from './cli/run-tool';

runTool(organizationsTool);

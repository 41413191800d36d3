import { eq } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { CompanySsoAdminError } from '../src/modules/company-sso';
import { OrganizationAdminError } from '../src/modules/organizations';
import { organizationMembers, users } from '../src/db/schema';
import { companySsoTestServer, REDIRECT } from './company-sso';
import type { IdpPerson } from './fake-idps';
import { samlIdp } from './saml-idp';

export const CLIENT = { clientId: 'acme-portal', clientSecret: 'acme-portal-secret-0123456789abcdef' };
export const PASSWORD = 'plum-orbit-cactus-917';
export const CODE_MAIL = /\n {4}(\d{6})\n/;

/** The message an operator command refuses with (it throws when the command is accepted). */
export const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CompanySsoAdminError || error instanceof OrganizationAdminError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

/**
 * A company SSO test server with two organizations: Acme signs in through its OpenID Connect IdP
 * (identifier Acme-Corp, domain acme.test) and Globex through a SAML IdP (identifier globex,
 * domain globex.test), both domains verified. `addresses` is the file's own (companySsoTestServer).
 */
export function companySsoOrganizations(addresses: string) {
  const h = companySsoTestServer({ ...CLIENT, redirectUris: [REDIRECT, 'http://locker.localhost:8080/sso/redirect'], addresses });
  const saml = samlIdp();

  beforeAll(async () => {
    await h.organizationWithIdp('Acme', 'Acme-Corp', 'acme.test');
    await h.organizations.createNamed({ name: 'Globex', adminEmail: 'hank@globex.test' });
    await h.admin.configureSaml({ organization: 'Globex', identifier: 'globex', metadataXml: saml.metadata });
    await h.verifiedDomain('Globex', 'globex.test');
  });

  return {
    h,
    saml,
    /** An OIDC sign-in at Acme's IdP (or the `identifier`'s), walked as a browser would. */
    oidcSignIn: (person: IdpPerson, options: { identifier?: string; state?: string; cookie?: string | null } = {}) => h.oidcSignIn(person, options.identifier ?? 'acme-corp', options),
    userByEmail: async (email: string) => (await h.server.database.db.select().from(users).where(eq(users.email, email)))[0],
    memberRow: async (email: string) => (await h.server.database.db.select().from(organizationMembers).where(eq(organizationMembers.email, email)))[0],
    me: (token: string) => h.server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } }),
  };
}

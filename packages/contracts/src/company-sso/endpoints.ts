import { z } from 'zod';
import { tokenResponseSchema } from '../auth/schemas';
import {
  companySsoDomainParamsSchema,
  companySsoDomainRequestSchema,
  companySsoDomainSchema,
  companySsoFinishRequestSchema,
  companySsoLinkConfirmedSchema,
  companySsoPendingLinkSchema,
  companySsoProofCodeRequestSchema,
  companySsoProofMailRequestSchema,
  companySsoProofMailResponseSchema,
  companySsoProviderRequestSchema,
  companySsoRequireRequestSchema,
  companySsoSettingsSchema,
  companySsoStartRequestSchema,
  companySsoStartResponseSchema,
} from './schemas';
import { mfaChallengeResponseSchema } from '../mfa/schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** Company SSO (/login/sso, /sso/redirect): an organization's OpenID Connect or SAML 2.0 identity provider. */
const { anyone, signedIn, sensitive } = endpointGroups('company-sso');

export const start = endpointIn(anyone, 'POST /_auth/sso/start', "The organization's identity provider to send the browser to, found by its SSO identifier or an email of a domain it verified; OpenID Connect state, nonce and PKCE are kept in a sealed cookie", {
  body: companySsoStartRequestSchema, response: companySsoStartResponseSchema,
  errors: ['sso.identifier_invalid', 'sso.idp_unavailable', 'rate_limited'],
});

export const finish = endpointIn(anyone, 'POST /_auth/sso/finish', 'Finish a company SSO sign-in at /sso/redirect: a session, the second-factor step or the deletion-restore offer; a new person is provisioned just in time as a member', {
  body: companySsoFinishRequestSchema, response: z.union([tokenResponseSchema, mfaChallengeResponseSchema]),
  errors: [
    '1002',
    'sso.state_invalid',
    'sso.idp_unavailable',
    'sso.email_missing',
    'sso.domain_not_verified',
    'sso.account_unverified',
    'sso.member_elsewhere',
    'sso.link_required',
    'sso.not_member',
    'account.deletion_pending',
    'rate_limited',
  ],
});

// ----- The organization's SSO settings (owners and admins of the caller's organization) -----

/** The organization's owners and admins. */
const admins = { ...signedIn, errors: ['organizations.not_member', 'organizations.forbidden'] } as const;
const adminsSensitive = { ...admins, recentAuth: true } as const;
/** One domain the organization claimed. */
const domain = { ...admins, params: companySsoDomainParamsSchema, errors: [...admins.errors, 'sso.domain_invalid', 'sso.domain_not_found'] } as const;
const domainSensitive = { ...domain, recentAuth: true } as const;

export const settings = endpointIn(admins, 'GET /sso/me/organization/sso', "The organization's SSO identifier, identity provider (never the client secret), require-SSO and domains, for its owners and admins", {
  response: companySsoSettingsSchema,
});

export const setProvider = endpointIn(adminsSensitive, 'PUT /sso/me/organization/sso', 'Set the SSO identifier and identity provider: OpenID Connect (issuer, client id, write-only secret) or SAML 2.0 (IdP metadata XML)', {
  body: companySsoProviderRequestSchema, response: companySsoSettingsSchema,
  errors: ['sso.identifier_format', 'sso.identifier_taken', 'sso.issuer_invalid', 'sso.client_id_required', 'sso.client_secret_required', 'sso.metadata_invalid'],
});

export const setRequireSso = endpointIn(adminsSensitive, 'PUT /sso/me/organization/sso/require', 'Require SSO for the members (password, email code, passkey and social sign-in refused), or not', {
  body: companySsoRequireRequestSchema, response: companySsoSettingsSchema, errors: ['sso.not_configured', 'sso.sign_in_first'],
});

export const addDomain = endpointIn(admins, 'POST /sso/me/organization/sso/domains', 'Claim an email domain: the answer carries the TXT record that proves it', {
  body: companySsoDomainRequestSchema, status: 201, response: companySsoDomainSchema, errors: ['sso.domain_invalid'],
});

export const verifyDomain = endpointIn(domainSensitive, 'POST /sso/me/organization/sso/domains/{domain}/verify', "Look the domain's TXT record up now: verified for this organization unless another verified it first", {
  response: companySsoDomainSchema, errors: ['sso.domain_record_missing', 'sso.domain_taken', 'sso.dns_unavailable'],
});

export const mailDomainProof = endpointIn(domain, 'POST /sso/me/organization/sso/domains/{domain}/mail-proof', 'Mail a one-time code proving the domain to one of its admin addresses (admin@, hostmaster@, postmaster@, webmaster@, or your own there): the alternative to the TXT record', {
  body: companySsoProofMailRequestSchema, response: companySsoProofMailResponseSchema,
  errors: ['sso.domain_verified_already', 'sso.proof_address_invalid', 'rate_limited'],
});

export const confirmDomainProof = endpointIn(domainSensitive, 'POST /sso/me/organization/sso/domains/{domain}/mail-proof/confirm', 'The code mailed to the domain: verifies it (single use, expiring, 5 guesses)', {
  body: companySsoProofCodeRequestSchema, response: companySsoDomainSchema,
  errors: ['auth.code_invalid', 'sso.domain_taken', 'rate_limited'],
});

export const removeDomain = endpointIn(domain, 'DELETE /sso/me/organization/sso/domains/{domain}', "Remove a domain from the organization (its members' email domain no longer leads to the organization's SSO)", {
  response: null,
});

// ----- Linking an existing account: its owner signs in their own way, then confirms -----

const linkErrors = ['sso.link_invalid', 'sso.link_other_account'] as const;

export const pendingLink = endpointIn(signedIn, 'GET /sso/me/organization/sso/link', "The company SSO link this browser holds (an organization's identity provider named the signed-in account's email): whose and for which organization", {
  response: companySsoPendingLinkSchema, errors: [...linkErrors],
});

export const confirmLink = endpointIn(sensitive, 'POST /sso/me/organization/sso/link', "Link the signed-in account to the organization's identity provider and join the organization: only its owner, signed in their own way, confirms this. `sso_required`: the organization requires SSO, so this session ended with the join", {
  response: companySsoLinkConfirmedSchema, errors: [...linkErrors, 'sso.domain_not_verified', 'sso.member_elsewhere'],
});

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companySsoEndpoints, organizationEndpoints, type CompanySsoProviderRequest, type OrganizationRole } from '@portal/contracts';
import { call } from '../../lib/api';
import { organizationQueryKey } from '../../lib/organization';

/** The invite form shows field errors (400: email, 7015) and the limit (429) itself. */
export const invite = (body: { email: string; role: OrganizationRole }) => call(organizationEndpoints.invite, { body }, { handle: [400, 409, 429] });
export const resendInvitation = (id: string) => call(organizationEndpoints.resendInvitation, { params: { id } });
export const revokeInvitation = (id: string) => call(organizationEndpoints.revokeInvitation, { params: { id } });
/** The confirm dialog shows its refusals (the last owner, someone already gone, a role no longer theirs to give) inside itself. */
const refusalsInDialog = { handle: [400, 403, 404, 409] };
export const changeRole = (email: string, role: OrganizationRole) => call(organizationEndpoints.changeRole, { params: { email }, body: { role } }, refusalsInDialog);
export const removeMember = (email: string) => call(organizationEndpoints.removeMember, { params: { email } }, refusalsInDialog);
export const leaveOrganization = () => call(organizationEndpoints.leave, undefined, refusalsInDialog);

/** The invitation link before anyone signs in (the result screen shows what it is for; failures are its message). */
export const previewInvitation = (token: string) => call(organizationEndpoints.previewInvitation, { body: { token } }, { handle: 'all' });
/** Accepting: refusals (expired, revoked, used, another person's, 7015) are the result screen's message. */
export const acceptInvitation = (token: string) => call(organizationEndpoints.acceptInvitation, { body: { token } }, { handle: [400, 403, 404, 409, 410] });

/**
 * A change on the organization page, then the page (and the side bar) read again, unless
 * `readAgain` says the answer left no session to read it with.
 */
export function useOrganizationChange<A extends unknown[], R>(action: (...args: A) => Promise<R>, readAgain: (answer: R | undefined) => boolean = () => true) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (args: A) => action(...args), onSettled: (answer) => (readAgain(answer) ? client.invalidateQueries({ queryKey: organizationQueryKey }) : undefined) });
}

// ----- Company SSO settings (owners and admins) -----

export const ssoSettingsQueryKey = ['sso', 'me', 'organization', 'sso'] as const;
/** The settings; a member's 403 and an outsider's 404 are the page's own message. */
export const fetchSsoSettings = () => call(companySsoEndpoints.settings, undefined, { handle: [403, 404] });
/** Field errors (400) and a taken identifier (409) show on the form; the reauth prompt comes from the API client. */
export const setSsoProvider = (body: CompanySsoProviderRequest) => call(companySsoEndpoints.setProvider, { body }, { handle: [400, 409] });
export const setRequireSso = (requireSso: boolean) => call(companySsoEndpoints.setRequireSso, { body: { require_sso: requireSso } }, { handle: [409] });
export const addSsoDomain = (domain: string) => call(companySsoEndpoints.addDomain, { body: { domain } }, { handle: [400] });
/** "Verify now": a missing record, a domain another organization verified and a failed lookup are shown on the row. */
export const verifySsoDomain = (domain: string) => call(companySsoEndpoints.verifyDomain, { params: { domain } }, { handle: [400, 404, 409, 502] });
/** The mailed proof: a refused address (400) or the limit (429) shows on the row. */
export const mailSsoDomainProof = (domain: string, address: string) => call(companySsoEndpoints.mailDomainProof, { params: { domain }, body: { address } }, { handle: [400, 404, 409, 429] });
export const confirmSsoDomainProof = (domain: string, code: string) => call(companySsoEndpoints.confirmDomainProof, { params: { domain }, body: { code } }, { handle: [400, 404, 409, 429] });
export const removeSsoDomain = (domain: string) => call(companySsoEndpoints.removeDomain, { params: { domain } });

/** The company SSO link this browser holds for the signed-in account; none, or another account's, is the page's message. */
export const pendingSsoLinkQueryKey = ['sso', 'me', 'organization', 'sso', 'link'] as const;
export const fetchPendingSsoLink = () => call(companySsoEndpoints.pendingLink, undefined, { handle: [400, 403] });
/** Confirming: a refusal (expired, another account's, the domain no longer verified, another organization) is shown on the page. */
export const confirmSsoLink = () => call(companySsoEndpoints.confirmLink, undefined, { handle: [400, 403] });

/**
 * Confirming the link, then the organization read again, unless the organization requires SSO:
 * then the session that confirmed has ended, and reading anything on it would answer 401 and
 * sign the page out to /login before it reaches company SSO.
 */
export const useConfirmSsoLink = () => useOrganizationChange(confirmSsoLink, (linked) => !linked?.sso_required);

/** A change on the SSO settings page, then the settings read again. */
export function useSsoChange<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (args: A) => action(...args), onSettled: () => client.invalidateQueries({ queryKey: ssoSettingsQueryKey }) });
}

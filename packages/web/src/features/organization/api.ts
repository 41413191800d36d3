import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationEndpoints, type OrganizationRole } from '@portal/contracts';
import { call } from '../../lib/api';
import { organizationQueryKey } from '../../lib/organization';

/** The invite form shows field errors (400: email, 7015) and the limit (429) itself. */
export const invite = (body: { email: string; role: OrganizationRole }) => call(organizationEndpoints.invite, { body }, { handle: [400, 409, 429] });
export const resendInvitation = (id: string) => call(organizationEndpoints.resendInvitation, { params: { id } });
export const revokeInvitation = (id: string) => call(organizationEndpoints.revokeInvitation, { params: { id } });
export const changeRole = (email: string, role: OrganizationRole) => call(organizationEndpoints.changeRole, { params: { email }, body: { role } });
export const removeMember = (email: string) => call(organizationEndpoints.removeMember, { params: { email } });
export const leaveOrganization = () => call(organizationEndpoints.leave);

/** The invitation link before anyone signs in (the result screen shows what it is for; failures are its message). */
export const previewInvitation = (token: string) => call(organizationEndpoints.previewInvitation, { body: { token } }, { handle: 'all' });
/** Accepting: refusals (expired, revoked, used, another person's, 7015) are the result screen's message. */
export const acceptInvitation = (token: string) => call(organizationEndpoints.acceptInvitation, { body: { token } }, { handle: [400, 403, 404, 409, 410] });

/** A change on the organization page, then the page (and the side bar) read again. */
export function useOrganizationChange<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (args: A) => action(...args), onSettled: () => client.invalidateQueries({ queryKey: organizationQueryKey }) });
}

import { useMutation } from '@tanstack/react-query';
import { userSchema, type User } from '@portal/contracts';
import { api } from '../../lib/api';
import { setSessionUser } from '../../lib/session';

/**
 * The primary, recovery and education addresses (contracts api/account.ts). Each call that
 * answers the user replaces the session's, so the header, home and profile follow.
 */
async function asUser(request: Promise<unknown>): Promise<User> {
  const user = userSchema.parse(await request);
  setSessionUser(user);
  return user;
}

export interface EmailChangeBody {
  new_email: string;
  password: string;
  code?: string;
  recovery_code?: string;
}

/** POST /sso/me/email/change → 204: a code goes to the new address, a notice to the old. */
export const requestEmailChange = (body: EmailChangeBody) => api.post<void>('/sso/me/email/change', body, { handle: [400] });
/** POST /sso/me/email/change/confirm {code} → user. */
export const confirmEmailChange = (code: string) => asUser(api.post('/sso/me/email/change/confirm', { code }, { handle: [400] }));

/** PUT /sso/me/recovery-email {email, password} → 204 (a code is mailed to it). */
export const requestRecoveryEmail = (body: { email: string; password: string }) => api.put<void>('/sso/me/recovery-email', body, { handle: [400] });
/** POST /sso/me/recovery-email/verify {code} → user. */
export const verifyRecoveryEmail = (code: string) => asUser(api.post('/sso/me/recovery-email/verify', { code }, { handle: [400] }));
/** DELETE /sso/me/recovery-email → user. */
export const removeRecoveryEmail = () => asUser(api.delete('/sso/me/recovery-email'));

/** POST /sso/me/education-email {email} → 204 (a confirmation link is mailed). */
export const requestEducationEmail = (email: string) => api.post<void>('/sso/me/education-email', { email }, { handle: [400] });

export const useRequestEmailChange = () => useMutation({ mutationFn: requestEmailChange });
export const useConfirmEmailChange = () => useMutation({ mutationFn: confirmEmailChange });
export const useRequestRecoveryEmail = () => useMutation({ mutationFn: requestRecoveryEmail });
export const useVerifyRecoveryEmail = () => useMutation({ mutationFn: verifyRecoveryEmail });
export const useRemoveRecoveryEmail = () => useMutation({ mutationFn: removeRecoveryEmail });
export const useRequestEducationEmail = () => useMutation({ mutationFn: requestEducationEmail });

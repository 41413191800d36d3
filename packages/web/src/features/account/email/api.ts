import { useMutation } from '@tanstack/react-query';
import { accountEndpoints, type User } from '@portal/contracts';
import { call } from '../../../lib/api';
import { setSessionUser } from '../../../lib/session';

/**
 * The primary, recovery and education addresses (contracts api/account.ts). Each call that
 * answers the user replaces the session's, so the header, home and profile follow.
 */
async function asUser(request: Promise<User>): Promise<User> {
  const user = await request;
  setSessionUser(user);
  return user;
}

export interface EmailChangeBody {
  new_email: string;
  password: string;
  code?: string;
  recovery_code?: string;
}

/** A code goes to the new address, a notice to the old. */
export const requestEmailChange = (body: EmailChangeBody) => call(accountEndpoints.requestEmailChange, { body }, { handle: [400] });
export const confirmEmailChange = (code: string) => asUser(call(accountEndpoints.confirmEmailChange, { body: { code } }, { handle: [400] }));

/** A code is mailed to the recovery address. */
export const requestRecoveryEmail = (body: { email: string; password: string }) => call(accountEndpoints.setRecoveryEmail, { body }, { handle: [400] });
export const verifyRecoveryEmail = (code: string) => asUser(call(accountEndpoints.verifyRecoveryEmail, { body: { code } }, { handle: [400] }));
export const removeRecoveryEmail = () => asUser(call(accountEndpoints.removeRecoveryEmail));

/** A confirmation link is mailed. */
export const requestEducationEmail = (email: string) => call(accountEndpoints.requestEducationEmail, { body: { email } }, { handle: [400] });

export const useRequestEmailChange = () => useMutation({ mutationFn: requestEmailChange });
export const useConfirmEmailChange = () => useMutation({ mutationFn: confirmEmailChange });
export const useRequestRecoveryEmail = () => useMutation({ mutationFn: requestRecoveryEmail });
export const useVerifyRecoveryEmail = () => useMutation({ mutationFn: verifyRecoveryEmail });
export const useRemoveRecoveryEmail = () => useMutation({ mutationFn: removeRecoveryEmail });
export const useRequestEducationEmail = () => useMutation({ mutationFn: requestEducationEmail });

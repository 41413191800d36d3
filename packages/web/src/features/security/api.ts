import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  mfaEndpoints,
  passkeyEndpoints,
  securityEndpoints,
  socialEndpoints,
  type SocialProviderId,
  type passkeySchema,
  type recoveryCodesResponseSchema,
  type securityOverviewSchema,
  type SessionInfo,
  type totpSetupResponseSchema,
  type twoFactorStatusSchema,
} from '@portal/contracts';
import { call } from '../../lib/api';
import { peekSessionUser, setSessionUser } from '../../lib/session';

/**
 * The security pages' calls (contracts api/second-factors.ts). Calls whose 400 belongs to a
 * form (a wrong password or code) handle it themselves; everything else goes through the
 * API client's policy.
 */

export type SecurityOverview = z.infer<typeof securityOverviewSchema>;
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
export type TotpSetup = z.infer<typeof totpSetupResponseSchema>;
export type RecoveryCodes = z.infer<typeof recoveryCodesResponseSchema>;
export type Passkey = z.infer<typeof passkeySchema>;
export type { SessionInfo };

export const securityKeys = {
  overview: ['security', 'overview'] as const,
  twoFactor: ['security', 'two-factor'] as const,
  passkeys: ['security', 'passkeys'] as const,
  sessions: ['security', 'sessions'] as const,
};

export const useSecurityOverview = () => useQuery({ queryKey: securityKeys.overview, queryFn: () => call(securityEndpoints.overview) });
export const useTwoFactorStatus = () => useQuery({ queryKey: securityKeys.twoFactor, queryFn: () => call(mfaEndpoints.status) });
export const usePasskeys = () => useQuery({ queryKey: securityKeys.passkeys, queryFn: () => call(passkeyEndpoints.list) });
export const useSessions = () => useQuery({ queryKey: securityKeys.sessions, queryFn: () => call(securityEndpoints.listSessions) });

/** Every security query again (one change shows on the overview and the page). */
export function useRefreshSecurity(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: ['security'] });
  };
}

/** The session's user follows what changed (the home page's "turn on two-step" hint, has_password). */
function patchUser(patch: Record<string, unknown>): void {
  const user = peekSessionUser();
  if (user) setSessionUser({ ...user, ...patch });
}

// Password ------------------------------------------------------------------------------

export interface PasswordChange {
  current_password?: string;
  new_password: string;
  confirm_password: string;
}

/** The server signs out every other session. */
export async function changePassword(body: PasswordChange): Promise<void> {
  await call(securityEndpoints.changePassword, { body }, { handle: [400] });
  patchUser({ has_password: true });
}

// Two-step verification ---------------------------------------------------------------

export const startTotpSetup = () => call(mfaEndpoints.totpSetup);
export async function enableTotp(code: string): Promise<RecoveryCodes> {
  const codes = await call(mfaEndpoints.totpEnable, { body: { code } }, { handle: [400] });
  patchUser({ two_factor_method: 'totp' });
  return codes;
}
/** Mails a code: to turn the email method on, or (while it is on) to confirm a change. */
export const sendTwoFactorEmail = () => call(mfaEndpoints.emailSend);
export async function enableEmailTwoFactor(code: string): Promise<RecoveryCodes> {
  const codes = await call(mfaEndpoints.emailEnable, { body: { code } }, { handle: [400] });
  patchUser({ two_factor_method: 'email' });
  return codes;
}

export interface TwoFactorConfirmation {
  password: string;
  code?: string;
  recovery_code?: string;
}
export async function disableTwoFactor(body: TwoFactorConfirmation): Promise<void> {
  await call(mfaEndpoints.disable, { body }, { handle: [400] });
  patchUser({ two_factor_method: null });
}
export const regenerateRecoveryCodes = (body: TwoFactorConfirmation) => call(mfaEndpoints.regenerateRecoveryCodes, { body }, { handle: [400] });

// Passkeys ------------------------------------------------------------------------------

export const passkeyEnableOptions = () => call(passkeyEndpoints.enableOptions, { body: { algorithms: ['es256', 'rs256'] } });
export const enablePasskey = (response: object, name?: string) =>
  call(passkeyEndpoints.enable, { body: { response: { ...response }, ...(name ? { name } : {}) } }, { handle: [400] });
export const renamePasskey = (id: string, name: string) => call(passkeyEndpoints.rename, { params: { id }, body: { name } }, { handle: [400] });
export const removePasskey = (id: string) => call(passkeyEndpoints.remove, { params: { id } });

// Sessions ------------------------------------------------------------------------------

export const revokeSession = (id: string) => call(securityEndpoints.revokeSession, { params: { id } });
export const revokeOtherSessions = () => call(securityEndpoints.revokeOtherSessions);

export const useRevokeSession = () => {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: revokeSession, onSuccess: refresh });
};

/** Social accounts linked to this one (Google, GitHub...), and the ones it could link. */
export const useLinkedIdentities = () => useQuery({ queryKey: ['security', 'social'] as const, queryFn: () => call(socialEndpoints.linked) });

export function useUnlinkIdentity() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (provider: SocialProviderId) => call(socialEndpoints.unlink, { params: { provider } }, { handle: [400] }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['security', 'social'] }),
  });
}

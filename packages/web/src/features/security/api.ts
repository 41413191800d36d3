import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  passkeySchema,
  recoveryCodesResponseSchema,
  revokedCountSchema,
  securityOverviewSchema,
  SessionInfo,
  totpSetupResponseSchema,
  twoFactorStatusSchema,
} from '@portal/contracts';
import { api } from '../../lib/api';
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

export const useSecurityOverview = () => useQuery({ queryKey: securityKeys.overview, queryFn: () => api.get<SecurityOverview>('/sso/me/security') });
export const useTwoFactorStatus = () => useQuery({ queryKey: securityKeys.twoFactor, queryFn: () => api.get<TwoFactorStatus>('/sso/me/2fa') });
export const usePasskeys = () => useQuery({ queryKey: securityKeys.passkeys, queryFn: () => api.get<Passkey[]>('/sso/users/me/webauthn') });
export const useSessions = () => useQuery({ queryKey: securityKeys.sessions, queryFn: () => api.get<SessionInfo[]>('/sso/me/sessions') });

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

/** PUT /sso/me/password → 204; the server signs out every other session. */
export async function changePassword(body: PasswordChange): Promise<void> {
  await api.put<void>('/sso/me/password', body, { handle: [400] });
  patchUser({ has_password: true });
}

// Two-step verification ---------------------------------------------------------------

export const startTotpSetup = () => api.post<TotpSetup>('/sso/me/2fa/totp/setup');
export async function enableTotp(code: string): Promise<RecoveryCodes> {
  const codes = await api.post<RecoveryCodes>('/sso/me/2fa/totp/enable', { code }, { handle: [400] });
  patchUser({ two_factor_method: 'totp' });
  return codes;
}
/** Mails a code: to turn the email method on, or (while it is on) to confirm a change. */
export const sendTwoFactorEmail = () => api.post<void>('/sso/me/2fa/email/send');
export async function enableEmailTwoFactor(code: string): Promise<RecoveryCodes> {
  const codes = await api.post<RecoveryCodes>('/sso/me/2fa/email/enable', { code }, { handle: [400] });
  patchUser({ two_factor_method: 'email' });
  return codes;
}

export interface TwoFactorConfirmation {
  password: string;
  code?: string;
  recovery_code?: string;
}
export async function disableTwoFactor(body: TwoFactorConfirmation): Promise<void> {
  await api.post<void>('/sso/me/2fa/disable', body, { handle: [400] });
  patchUser({ two_factor_method: null });
}
export const regenerateRecoveryCodes = (body: TwoFactorConfirmation) => api.post<RecoveryCodes>('/sso/me/2fa/recovery-codes', body, { handle: [400] });

// Passkeys ------------------------------------------------------------------------------

export const passkeyEnableOptions = () => api.post<Record<string, unknown>>('/sso/users/me/webauthn/enable/options', { algorithms: ['es256', 'rs256'] });
export const enablePasskey = (response: unknown, name?: string) =>
  api.post<Passkey>('/sso/users/me/webauthn/enable', { response, ...(name ? { name } : {}) }, { handle: [400] });
export const renamePasskey = (id: string, name: string) => api.put<Passkey>(`/sso/users/me/webauthn/${encodeURIComponent(id)}`, { name }, { handle: [400] });
export const removePasskey = (id: string) => api.delete<void>(`/sso/users/me/webauthn/${encodeURIComponent(id)}`);

// Sessions ------------------------------------------------------------------------------

export const revokeSession = (id: string) => api.delete<void>(`/sso/me/sessions/${encodeURIComponent(id)}`);
export const revokeOtherSessions = () => api.post<z.infer<typeof revokedCountSchema>>('/sso/me/sessions/revoke-others');

export const useRevokeSession = () => {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: revokeSession, onSuccess: refresh });
};

import { useMutation, useQuery } from '@tanstack/react-query';
import { accountEndpoints, avatarEndpoints, oauthEndpoints, resourceEndpoints, type Country, type UpdateMeRequest, type User } from '@portal/contracts';
import { call } from '../../lib/api';
import { setSessionUser, type SessionUser } from '../../lib/session';
import type { PasswordCredentials } from '../../components/dialogs/PasswordDialog';

/** Every country with its English and Vietnamese name; an empty list on failure (the spec's call list). */
export async function fetchCountries(): Promise<Country[]> {
  try {
    return await call(resourceEndpoints.countries, {}, { handle: 'all' });
  } catch {
    return [];
  }
}

export function useCountries() {
  return useQuery({ queryKey: ['resources', 'countries'], queryFn: fetchCountries, staleTime: Infinity });
}

/**
 * The whole user object plus language and customer_language (the spec's call list).
 * The form shows a 400's field messages itself; the saved user replaces the session's.
 */
export async function saveProfile(body: SessionUser & UpdateMeRequest): Promise<User> {
  const saved = await call(accountEndpoints.updateMe, { body }, { handle: [400] });
  setSessionUser(saved);
  return saved;
}

export const useSaveProfile = () => useMutation({ mutationFn: saveProfile });

/** Multipart field `file` → {avatar_url}. The page reports refusals (400, 413, 415) itself. */
export async function uploadAvatar(file: File): Promise<string | null> {
  const body = new FormData();
  body.append('file', file);
  return (await call(avatarEndpoints.upload, { body }, { handle: [400, 413, 415] })).avatar_url;
}

export const removeAvatar = () => call(avatarEndpoints.remove);

export const useUploadAvatar = () => useMutation({ mutationFn: uploadAvatar });
export const useRemoveAvatar = () => useMutation({ mutationFn: removeAvatar });

/** → {deletion_due_at}: signs out everywhere and schedules the purge. */
export async function requestDeletion(body: PasswordCredentials): Promise<string> {
  return (await call(accountEndpoints.requestDeletion, { body: { ...body, confirmation: body.confirmation ?? '' } }, { handle: [400] })).deletion_due_at;
}

/** Connected apps (the spec's OAuth consent): outside apps the person allowed, and Revoke. */
export const connectedAppsKey = ['oauth', 'connected-apps'] as const;
export const useConnectedApps = () => useQuery({ queryKey: connectedAppsKey, queryFn: async () => (await call(oauthEndpoints.connectedApps)).apps });
export const revokeConnectedApp = (clientId: string) => call(oauthEndpoints.revokeConnectedApp, { params: { client_id: clientId } });

import { useMutation, useQuery } from '@tanstack/react-query';
import {
  avatarResponseSchema,
  countriesResponseSchema,
  deletionResponseSchema,
  userSchema,
  type Country,
  type UpdateMeRequest,
  type User,
} from '@portal/contracts';
import { api } from '../../lib/api';
import { setSessionUser, type SessionUser } from '../../lib/session';
import type { PasswordCredentials } from '../../components/dialogs/PasswordDialog';

/** GET /resources/countries: every country with its English and Vietnamese name; an empty list on failure (spec section 7). */
export async function fetchCountries(): Promise<Country[]> {
  try {
    return countriesResponseSchema.parse(await api.get('/resources/countries', { handle: 'all' }));
  } catch {
    return [];
  }
}

export function useCountries() {
  return useQuery({ queryKey: ['resources', 'countries'], queryFn: fetchCountries, staleTime: Infinity });
}

/**
 * PUT /sso/me: the whole user object plus language and customer_language (spec section 7).
 * The form shows a 400's field messages itself; the saved user replaces the session's.
 */
export async function saveProfile(body: SessionUser & UpdateMeRequest): Promise<User> {
  const saved = userSchema.parse(await api.put('/sso/me', body, { handle: [400] }));
  setSessionUser(saved);
  return saved;
}

export const useSaveProfile = () => useMutation({ mutationFn: saveProfile });

/** PUT /sso/me/avatar, multipart field `file` → {avatar_url}. The page reports refusals (400, 413, 415) itself. */
export async function uploadAvatar(file: File): Promise<string | null> {
  const body = new FormData();
  body.append('file', file);
  return avatarResponseSchema.parse(await api.put('/sso/me/avatar', body, { handle: [400, 413, 415] })).avatar_url;
}

/** DELETE /sso/me/avatar → 204. */
export const removeAvatar = () => api.delete<void>('/sso/me/avatar');

export const useUploadAvatar = () => useMutation({ mutationFn: uploadAvatar });
export const useRemoveAvatar = () => useMutation({ mutationFn: removeAvatar });

/** POST /sso/me/deletion → {deletion_due_at}: signs out everywhere and schedules the purge. */
export async function requestDeletion(body: PasswordCredentials): Promise<string> {
  return deletionResponseSchema.parse(await api.post('/sso/me/deletion', body, { handle: [400] })).deletion_due_at;
}

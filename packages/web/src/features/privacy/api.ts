import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { privacySettingsSchema } from '@portal/contracts';
import type { z } from 'zod';
import { api } from '../../lib/api';

export type PrivacySettings = z.infer<typeof privacySettingsSchema>;
export const privacyQueryKey = ['sso', 'me', 'privacy'] as const;

/** GET /sso/me/privacy. */
export const fetchPrivacy = async () => privacySettingsSchema.parse(await api.get('/sso/me/privacy'));
/** PUT /sso/me/privacy → the settings as saved. The page words the failure toast itself (silent). */
export const savePrivacy = async (settings: PrivacySettings) => privacySettingsSchema.parse(await api.put('/sso/me/privacy', settings, { silent: true }));

export const usePrivacy = () => useQuery({ queryKey: privacyQueryKey, queryFn: fetchPrivacy });

export function useSavePrivacy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: savePrivacy,
    // The switch moves at once; a failure puts it back.
    onMutate: async (settings) => {
      await client.cancelQueries({ queryKey: privacyQueryKey });
      const previous = client.getQueryData<PrivacySettings>(privacyQueryKey);
      client.setQueryData(privacyQueryKey, settings);
      return { previous };
    },
    onError: (_error, _settings, context) => {
      if (context?.previous) client.setQueryData(privacyQueryKey, context.previous);
    },
    onSuccess: (saved) => client.setQueryData(privacyQueryKey, saved),
  });
}

/** GET /sso/me/export: every piece of personal data we keep, as JSON. */
export const fetchExport = () => api.get<unknown>('/sso/me/export');

/** Hand `data` to the browser as a JSON file download. */
export function downloadJson(data: unknown, fileName: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

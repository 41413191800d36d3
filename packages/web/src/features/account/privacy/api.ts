import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints, oauthEndpoints, privacySettingsSchema } from '@portal/contracts';
import type { z } from 'zod';
import { call } from '../../../lib/api';

export type PrivacySettings = z.infer<typeof privacySettingsSchema>;
export const privacyQueryKey = ['sso', 'me', 'privacy'] as const;

export const fetchPrivacy = () => call(accountEndpoints.privacy);
/** → the settings as saved. The page words the failure toast itself (silent). */
export const savePrivacy = (settings: PrivacySettings) => call(accountEndpoints.setPrivacy, { body: settings }, { silent: true });

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

/** Every piece of personal data we keep, as JSON. */
export const fetchExport = () => call(accountEndpoints.exportData);

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

/** The outside apps the person allowed (read here for a summary; Account settings lists them with Revoke; same cache key). */
export const useAuthorizedApps = () => useQuery({ queryKey: ['oauth', 'connected-apps'], queryFn: async () => (await call(oauthEndpoints.connectedApps)).apps });

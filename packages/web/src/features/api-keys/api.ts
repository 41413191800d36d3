import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeyListSchema, createdApiKeySchema, type ApiKeyScope } from '@portal/contracts';
import { api } from '../../lib/api';

export const apiKeysQueryKey = ['sso', 'me', 'api-keys'] as const;

/** GET /sso/me/api-keys. */
export const fetchApiKeys = async () => apiKeyListSchema.parse(await api.get('/sso/me/api-keys'));

export const useApiKeys = () => useQuery({ queryKey: apiKeysQueryKey, queryFn: fetchApiKeys });

/** POST /sso/me/api-keys → the key, shown this once (the dialog shows a 400's field messages). */
export const createApiKey = async (body: { name: string; scopes: ApiKeyScope[]; expires_in_days?: number }) =>
  createdApiKeySchema.parse(await api.post('/sso/me/api-keys', body, { handle: [400] }));

/** DELETE /sso/me/api-keys/{id} → 204. */
export const revokeApiKey = (id: string) => api.delete<void>(`/sso/me/api-keys/${encodeURIComponent(id)}`);

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createApiKey, onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQueryKey }) });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSettled: () => client.invalidateQueries({ queryKey: apiKeysQueryKey }) });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeyEndpoints, type EndpointInput } from '@portal/contracts';
import { call } from '../../lib/api';

export const apiKeysQueryKey = ['sso', 'me', 'api-keys'] as const;

export const fetchApiKeys = () => call(apiKeyEndpoints.list);

export const useApiKeys = () => useQuery({ queryKey: apiKeysQueryKey, queryFn: fetchApiKeys });

/** The key, shown this once (the dialog shows a 400's field messages). */
export const createApiKey = (body: EndpointInput<typeof apiKeyEndpoints.create>['body']) => call(apiKeyEndpoints.create, { body }, { handle: [400] });

export const revokeApiKey = (id: string) => call(apiKeyEndpoints.revoke, { params: { id } });

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createApiKey, onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQueryKey }) });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSettled: () => client.invalidateQueries({ queryKey: apiKeysQueryKey }) });
}

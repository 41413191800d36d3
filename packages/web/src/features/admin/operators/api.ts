import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminOperatorEndpoints, type AdminScope, type OperatorRole } from '@portal/contracts';
import { call } from '../../../lib/api';

const OPERATORS = ['admin', 'operators'] as const;
const KEYS = ['admin', 'operator-api-keys'] as const;

/** Every operator and their roles (owners only: the server refuses anyone else). */
export const useOperators = () => useQuery({ queryKey: OPERATORS, queryFn: () => call(adminOperatorEndpoints.listOperators), retry: false });

function useOperatorsChange<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => void queryClient.invalidateQueries({ queryKey: OPERATORS }) });
}

/** The reason dialog shows a refusal itself (no account with this email, the last owner). */
export const useGrantRole = () =>
  useOperatorsChange((input: { email: string; role: OperatorRole; reason: string }) => call(adminOperatorEndpoints.grantRole, { body: input }, { handle: [400, 404, 409] }));

/** An owner may take a role from themselves (another owner stays): the shell then asks again who they are. */
export function useRevokeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; role: OperatorRole; reason: string }) =>
      call(adminOperatorEndpoints.revokeRole, { params: { userId: input.userId, role: input.role }, body: { reason: input.reason } }, { handle: [400, 404, 409] }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: OPERATORS });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'me'] });
    },
  });
}

/** The calling operator's own API keys (never the keys themselves: the list holds their prefix). */
export const useOperatorApiKeys = () => useQuery({ queryKey: KEYS, queryFn: () => call(adminOperatorEndpoints.listApiKeys), retry: false });

function useKeysChange<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEYS }) });
}

export interface NewOperatorKey {
  name: string;
  scopes: AdminScope[];
  expires_in_days?: number;
  reason: string;
}

/** Answers the new key with its secret, which exists in this answer only. */
export const useCreateOperatorApiKey = () => useKeysChange((input: NewOperatorKey) => call(adminOperatorEndpoints.createApiKey, { body: input }, { handle: [400, 409] }));

export const useRevokeOperatorApiKey = () =>
  useKeysChange((input: { id: string; reason: string }) => call(adminOperatorEndpoints.revokeApiKey, { params: { id: input.id }, body: { reason: input.reason } }, { handle: [400, 404] }));

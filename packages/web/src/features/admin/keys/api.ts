import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminKeyEndpoints } from '@portal/contracts';
import { call } from '../../../lib/api';

const KEYS = ['admin', 'signing-keys'] as const;

export const useSigningKeys = () => useQuery({ queryKey: KEYS, queryFn: () => call(adminKeyEndpoints.listSigningKeys), retry: false });

function useKeyChange<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEYS }) });
}

export const useRotateSigningKeys = () =>
  useKeyChange((input: { immediately: boolean; reason: string }) => call(adminKeyEndpoints.rotateSigningKeys, { body: input }, { handle: [400, 409] }));

export const useDropSigningKey = () =>
  useKeyChange((input: { kid: string; reason: string }) => call(adminKeyEndpoints.dropSigningKey, { params: { kid: input.kid }, body: { reason: input.reason } }, { handle: [400, 404, 409] }));

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminAppEndpoints, adminKeyEndpoints, type AdminAppSettings } from '@portal/contracts';
import { call } from '../../../lib/api';

const APPS = ['admin', 'apps'] as const;
const SIGNING_KEYS = ['admin', 'signing-keys'] as const;

export const useApps = () => useQuery({ queryKey: APPS, queryFn: () => call(adminAppEndpoints.listApps), retry: false });

/** Every change takes its reason; the list is read again after it. Errors are shown in the dialog that asked the reason. */
function useChange<Input, Output>(list: readonly string[], run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => void queryClient.invalidateQueries({ queryKey: list }) });
}

const useAppChange = <Input, Output>(run: (input: Input) => Promise<Output>) => useChange(APPS, run);

const handled = { handle: [400, 404, 409] } as const;

export const useRegisterApp = () =>
  useAppChange((input: AdminAppSettings & { public: boolean; reason: string }) => call(adminAppEndpoints.registerApp, { body: input }, handled));

export const useUpdateApp = () =>
  useAppChange((input: { clientId: string; settings: AdminAppSettings; reason: string }) =>
    call(adminAppEndpoints.updateApp, { params: { client_id: input.clientId }, body: { ...input.settings, reason: input.reason } }, handled),
  );

export const useRotateAppSecret = () =>
  useAppChange((input: { clientId: string; reason: string }) => call(adminAppEndpoints.rotateAppSecret, { params: { client_id: input.clientId }, body: { reason: input.reason } }, handled));

export const useSetAppDisabled = () =>
  useAppChange((input: { clientId: string; disabled: boolean; reason: string }) =>
    call(input.disabled ? adminAppEndpoints.disableApp : adminAppEndpoints.enableApp, { params: { client_id: input.clientId }, body: { reason: input.reason } }, handled),
  );

export const useDeleteApp = () =>
  useAppChange((input: { clientId: string; reason: string }) => call(adminAppEndpoints.deleteApp, { params: { client_id: input.clientId }, body: { reason: input.reason } }, handled));

export const useSetAppLogo = () =>
  useAppChange((input: { clientId: string; imageBase64: string; reason: string }) =>
    call(adminAppEndpoints.setAppLogo, { params: { client_id: input.clientId }, body: { image_base64: input.imageBase64, reason: input.reason } }, handled),
  );

/** A file's bytes as base64 (what the logo endpoint takes beside the reason). */
export function fileAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(file);
  });
}

export const useSigningKeys = () => useQuery({ queryKey: SIGNING_KEYS, queryFn: () => call(adminKeyEndpoints.listSigningKeys), retry: false });

export const useRotateSigningKeys = () =>
  useChange(SIGNING_KEYS, (input: { immediately: boolean; reason: string }) => call(adminKeyEndpoints.rotateSigningKeys, { body: input }, { handle: [400, 409] }));

export const useDropSigningKey = () =>
  useChange(SIGNING_KEYS, (input: { kid: string; reason: string }) =>
    call(adminKeyEndpoints.dropSigningKey, { params: { kid: input.kid }, body: { reason: input.reason } }, { handle: [400, 404, 409] }),
  );

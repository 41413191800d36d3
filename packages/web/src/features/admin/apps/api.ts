import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminAppEndpoints, type AdminAppSettings } from '@portal/contracts';
import { call } from '../../../lib/api';

const APPS = ['admin', 'apps'] as const;

export const useApps = () => useQuery({ queryKey: APPS, queryFn: () => call(adminAppEndpoints.listApps), retry: false });

/** Every change takes its reason; the list is read again after it. Errors are shown in the dialog that asked the reason. */
function useAppChange<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => void queryClient.invalidateQueries({ queryKey: APPS }) });
}

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

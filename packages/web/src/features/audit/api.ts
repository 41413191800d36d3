import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditEndpoints, endpointPath, type AuditFilterQuery } from '@portal/contracts';
import { ApiError, apiUrl, call } from '../../lib/api';
import { currentDeviceId } from '../../lib/device-id';

export const administeredQueryKey = ['organizations', 'administered'] as const;

/** The organizations the signed-in person administers: the side bar shows the audit log only to them. */
export const useAdministeredOrganizations = () =>
  useQuery({ queryKey: administeredQueryKey, queryFn: () => call(auditEndpoints.administered, undefined, { silent: true }), staleTime: 60_000 });

/** The filters as the query string carries them: only the ones set. */
export function filterQuery(filters: AuditFilterQuery): AuditFilterQuery {
  const query: AuditFilterQuery = {};
  for (const key of ['action', 'email', 'from', 'to'] as const) {
    const value = filters[key]?.trim();
    if (value) query[key] = value;
  }
  return query;
}

/** One page of the log; the page shows 400s and 403s itself. */
export const useAuditEvents = (organizationId: string | undefined, filters: AuditFilterQuery, cursor: string | undefined) =>
  useQuery({
    queryKey: ['organizations', organizationId, 'audit-events', filters, cursor ?? null],
    queryFn: () => call(auditEndpoints.list, { params: { organizationId: organizationId! }, query: { ...filterQuery(filters), cursor, limit: PAGE_SIZE } }, { handle: [400, 403] }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const PAGE_SIZE = 50;

/** Downloads the filtered log as a CSV file (with the session cookie), named as the server names it. */
export async function downloadAuditCsv(organizationId: string, filters: AuditFilterQuery): Promise<void> {
  const deviceId = currentDeviceId();
  const search = new URLSearchParams(filterQuery(filters) as Record<string, string>).toString();
  const response = await fetch(`${apiUrl(endpointPath(auditEndpoints.exportCsv, { organizationId }))}${search ? `?${search}` : ''}`, {
    credentials: 'include',
    headers: deviceId ? { 'device-id': deviceId } : {},
  });
  if (!response.ok) throw new ApiError({ status: response.status, code: `http_${response.status}`, message: `audit log export ${response.status}` });
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'audit-log.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditEndpoints, endpointPath, type AuditFilterQuery } from '@portal/contracts';
import { call } from '../../lib/api';
import { downloadCsv } from '../../lib/download';
import { setFilters } from '../../lib/filter-query';

export const administeredQueryKey = ['organizations', 'administered'] as const;

/** The organizations the signed-in person administers: the side bar shows the audit log only to them. */
export const useAdministeredOrganizations = () =>
  useQuery({ queryKey: administeredQueryKey, queryFn: () => call(auditEndpoints.administered, undefined, { silent: true }), staleTime: 60_000 });

/** The filters as the query string carries them: only the ones set. */
export const filterQuery = (filters: AuditFilterQuery): AuditFilterQuery => setFilters(filters, ['action', 'email', 'from', 'to']);

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
export const downloadAuditCsv = (organizationId: string, filters: AuditFilterQuery): Promise<void> =>
  downloadCsv(endpointPath(auditEndpoints.exportCsv, { organizationId }), filterQuery(filters) as Record<string, string>, 'audit-log.csv', 'audit log');

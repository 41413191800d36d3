import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminDashboardEndpoints, adminOperatorEndpoints, endpointPath, type DashboardRange } from '@portal/contracts';
import { call } from '../../lib/api';
import { downloadCsv } from '../../lib/download';
import { setFilters } from '../../lib/filter-query';

/**
 * The calling operator. The shell handles every refusal itself (not an operator: the 404 page;
 * no two-step: the page that sends them to turn it on); an old sign-in opens the
 * re-authentication dialog (lib/api.ts) and the call is repeated.
 */
export const useAdminMe = (enabled: boolean) =>
  useQuery({ queryKey: ['admin', 'me'], queryFn: () => call(adminOperatorEndpoints.me, undefined, { handle: [403] }), retry: false, staleTime: 60_000, enabled });

export const useDashboard = (range: DashboardRange) =>
  useQuery({
    queryKey: ['admin', 'dashboard', range],
    queryFn: () => call(adminDashboardEndpoints.dashboard, { query: { range } }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });

export interface OperatorAuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
}

/** The filters as the query string carries them: only the ones set. */
export const auditFilterQuery = (filters: OperatorAuditFilters): OperatorAuditFilters => setFilters(filters, ['actor', 'action', 'target', 'from', 'to']);

export const AUDIT_PAGE_SIZE = 50;

/** One page of the operator audit log; the page shows a 400 (a bad filter) itself. */
export const useOperatorAudit = (filters: OperatorAuditFilters, cursor: string | undefined) =>
  useQuery({
    queryKey: ['admin', 'audit', filters, cursor ?? null],
    queryFn: () => call(adminOperatorEndpoints.audit, { query: { ...auditFilterQuery(filters), cursor, limit: AUDIT_PAGE_SIZE } }, { handle: [400] }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** Downloads the filtered log as the server's CSV file (with the session cookie), named as the server names it. */
export const downloadOperatorAuditCsv = (filters: OperatorAuditFilters): Promise<void> =>
  downloadCsv(endpointPath(adminOperatorEndpoints.auditCsv), auditFilterQuery(filters) as Record<string, string>, 'operator-audit.csv', 'operator audit');

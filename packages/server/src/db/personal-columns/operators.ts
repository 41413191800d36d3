import { no, deleteRow, clear, anonymise, type PersonalColumns } from './handling';

/** Operators' roles, keys and audit log, and the dashboard's counters. */
export const operatorColumns: PersonalColumns = {
  operator_roles: { user_id: deleteRow, role: deleteRow, granted_at: deleteRow },
  operator_api_keys: { id: no, user_id: deleteRow, name: deleteRow, prefix: deleteRow, key_hash: deleteRow, scopes: no, expires_at: no, last_used_at: no, revoked_at: no, created_at: no },
  // What an operator did stays (the target is ids, the reason says why, never who: docs/operators.md).
  operator_audit_events: {
    id: no,
    occurred_at: no,
    actor_user_id: no,
    actor_email: anonymise,
    via: no,
    action: no,
    summary: no,
    target: no,
    reason: no,
    ip: clear,
    user_agent: clear,
  },
  /** The operators' dashboard: counts per metric and hour, naming nobody. */
  dashboard_counters: { metric: no, hour: no, count: no },
};

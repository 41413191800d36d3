import { auditActions, type AdministeredOrganization, type AuditAction, type AuditEvent, type AuditEventList, type AuditFilterQuery } from '@portal/contracts';
import type { Database, DatabaseTransaction } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError, fieldError } from '../../platform/errors';
import { administeredOrganizations, organizationOfMember } from '../organizations';
import { csvRecord } from './csv';
import { auditQueries, insertAuditEvent, type AuditCursor, type AuditEventRow, type AuditFilter } from './queries';

export type AuditDetail = Record<string, string | number | boolean | null>;

/** A person an entry names: the account (when there is one) and the email as it was then. */
export interface AuditPerson {
  userId?: string | null;
  email?: string | null;
}

/**
 * One entry of an organization's audit log, as other modules hand it to `record`. The
 * membership and role actions are the organizations module's to record (`member_invited`,
 * `member_joined`, `member_removed`, `member_left`, `role_changed`, `invitation_revoked`),
 * with `detail` such as `{ role: 'admin', previous_role: 'member' }`.
 */
export interface AuditEntry {
  organizationId: string;
  action: AuditAction;
  /** Who did it (the admin who invited, the member who left); null for the system. */
  actor?: AuditPerson | null;
  /** Whom it concerns (the invited or removed member); null when the actor is the subject. */
  target?: AuditPerson | null;
  /** Where from: a RequestOrigin fits (its ip and userAgent are kept). */
  origin?: { ip?: string | null; userAgent?: string | null } | null;
  detail?: AuditDetail;
}

/** `record` writes through a transaction as well. */
export type { DatabaseTransaction };

export interface AuditDependencies {
  db: Database;
  clock: Clock;
}

/** What the member-event hooks need besides: a log for the failures they swallow. */
export interface AuditHookDependencies extends AuditDependencies {
  log: { error(object: unknown, message: string): void };
}

const USER_AGENT_MAX = 512;

/**
 * Appends one entry to an organization's audit log. Throws when it cannot be written: a
 * caller recording inside its own transaction (pass the transaction as `db`) then rolls back
 * the change with its entry.
 */
export async function record(deps: { db: Database | DatabaseTransaction; clock: Clock }, entry: AuditEntry): Promise<void> {
  if (!(auditActions as readonly string[]).includes(entry.action)) throw new Error(`unknown audit action ${String(entry.action)}`);
  await insertAuditEvent(deps.db, {
    organizationId: entry.organizationId,
    occurredAt: deps.clock.now(),
    action: entry.action,
    actorUserId: entry.actor?.userId ?? null,
    actorEmail: entry.actor?.email?.toLowerCase() ?? null,
    targetUserId: entry.target?.userId ?? null,
    targetEmail: entry.target?.email?.toLowerCase() ?? null,
    ip: entry.origin?.ip ?? null,
    userAgent: entry.origin?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    detail: entry.detail ?? {},
  });
}

/** A membership or role change as the organizations module reports it (its MembershipChange). */
export interface MembershipChangeReport {
  organizationId: string;
  actorUserId: string | null;
  action: Extract<AuditAction, 'member_invited' | 'member_joined' | 'member_removed' | 'member_left' | 'role_changed' | 'invitation_revoked'>;
  targetEmail: string;
  /** `{ from, to }` for a role change; other plain values are kept as they are. */
  detail?: Record<string, unknown>;
}

/**
 * Records a membership or role change (app.ts binds the organizations module's hook here).
 * A role change's `from` and `to` become the `previous_role` and `role` the page words.
 */
export function recordMembershipChange(deps: { db: Database | DatabaseTransaction; clock: Clock }, change: MembershipChangeReport, actorEmail?: string | null): Promise<void> {
  const { from, to, ...rest } = change.detail ?? {};
  const detail: NonNullable<AuditEntry['detail']> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') detail[key] = value;
  }
  if (typeof to === 'string') detail.role = to;
  if (typeof from === 'string') detail.previous_role = from;
  return record(deps, {
    organizationId: change.organizationId,
    action: change.action,
    actor: change.actorUserId ? { userId: change.actorUserId, email: actorEmail ?? null } : null,
    target: { email: change.targetEmail },
    detail,
  });
}

/** The security events of a member the server records by itself (sign-ins and factor changes). */
export type MemberEventAction = Extract<AuditAction, 'sign_in' | 'sign_in_failed' | 'two_factor_enabled' | 'two_factor_disabled' | 'passkey_added' | 'passkey_removed'>;

/** A log line about a failed write that names no person, address or parameter (the query text would carry them). */
function safeError(error: unknown): { name: string; code?: string } {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  return { name: cause instanceof Error ? cause.name : typeof cause, ...(code ? { code } : {}) };
}

/**
 * Records a security event of a person in the audit log of the organization their email
 * belongs to; for anyone in no organization this costs one indexed lookup and writes nothing
 * (no lookup when the caller already knows: `known`, null for no organization). Never throws:
 * what it reports has happened (a sign-in, a new passkey) and goes on without
 * its entry, which is logged as missing (with the action only, never the person or a secret).
 */
export async function recordMemberEvent(
  deps: AuditHookDependencies,
  member: { id?: string | null; email: string },
  action: MemberEventAction,
  origin: AuditEntry['origin'],
  detail: AuditDetail = {},
  known?: { organizationId: string } | null,
): Promise<void> {
  try {
    const organizationId = known === undefined ? await organizationOfMember(deps.db, member.email) : known?.organizationId;
    if (!organizationId) return;
    const person = { userId: member.id ?? null, email: member.email };
    await record(deps, { organizationId, action, actor: person, target: person, origin, detail });
  } catch (error) {
    deps.log.error({ audit: { action, error: safeError(error) } }, 'organization audit event not recorded');
  }
}

// --- Reading the log ------------------------------------------------------------------------

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const CURSOR = /^(\d{1,15})_(\d{1,18})$/;

/** A date filter: a day (`from` its start, `to` through its end, in UTC) or an exact time. */
function parseDate(field: 'from' | 'to', value: string | undefined): Date | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const day = DAY.exec(text);
  let date: Date;
  if (day) {
    date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    // 2026-02-31 rolls over to March: refused, not reinterpreted.
    if (date.getUTCDate() !== Number(day[3])) throw fieldError(field, 'audit.date_invalid');
    if (field === 'to') date = new Date(date.getTime() + 86_400_000);
  } else if (ISO_TIME.test(text)) {
    date = new Date(text);
    if (field === 'to') date = new Date(date.getTime() + 1);
  } else {
    throw fieldError(field, 'audit.date_invalid');
  }
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 2000 || date.getUTCFullYear() > 9999) throw fieldError(field, 'audit.date_invalid');
  return date;
}

/** Checks the filters of the list and the export: a 400 naming the first bad field. */
export function parseFilter(query: AuditFilterQuery): AuditFilter {
  const actions = (query.action ?? '')
    .split(',')
    .map((action) => action.trim())
    .filter(Boolean);
  for (const action of actions) {
    if (!(auditActions as readonly string[]).includes(action)) throw fieldError('action', 'audit.action_invalid', { action: action.slice(0, 40) });
  }
  const email = query.email?.trim().toLowerCase() ?? '';
  if (email.length > 254 || /[\s\p{Cc}]/u.test(email)) throw fieldError('email', 'audit.email_invalid');
  const from = parseDate('from', query.from);
  const before = parseDate('to', query.to);
  if (from && before && from >= before) throw fieldError('to', 'audit.date_range_invalid');
  return { actions: [...new Set(actions)], email: email || undefined, from, before };
}

function parseCursor(cursor: string | undefined): AuditCursor | undefined {
  if (!cursor) return undefined;
  const match = CURSOR.exec(cursor);
  const id = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(id)) throw fieldError('cursor', 'audit.cursor_invalid');
  return { occurredAt: new Date(Number(match[1])), id };
}

const cursorOf = (row: AuditEventRow) => `${row.occurredAt.getTime()}_${row.id}`;

export function toAuditEventDto(row: AuditEventRow): AuditEvent {
  return {
    id: String(row.id),
    occurred_at: row.occurredAt.toISOString(),
    action: row.action as AuditAction,
    actor_user_id: row.actorUserId,
    actor_email: row.actorEmail,
    target_user_id: row.targetUserId,
    target_email: row.targetEmail,
    ip: row.ip,
    user_agent: row.userAgent,
    detail: row.detail,
  };
}

export const CSV_COLUMNS = ['occurred_at', 'action', 'actor_email', 'actor_user_id', 'target_email', 'target_user_id', 'ip', 'user_agent', 'detail'] as const;
const EXPORT_BATCH = 500;

export type AuditService = ReturnType<typeof createAuditService>;

/** The audit log as its readers see it: owners and admins of the organization only. */
export function createAuditService(deps: AuditDependencies) {
  const queries = auditQueries(deps.db);

  /** An owner or admin by a current membership row, asked on every read (the organization's creator columns give nothing). */
  async function requireAdmin(caller: { id: string; email: string }, organizationId: string): Promise<void> {
    const administered = await administeredOrganizations(deps.db, caller.id, caller.email);
    if (!administered.some((organization) => organization.id === organizationId)) throw new AppError('audit.not_admin');
  }

  return {
    administered: async (caller: { id: string; email: string }): Promise<{ items: AdministeredOrganization[] }> => ({ items: await administeredOrganizations(deps.db, caller.id, caller.email) }),

    async list(caller: { id: string; email: string }, organizationId: string, query: AuditFilterQuery & { cursor?: string; limit: number }): Promise<AuditEventList> {
      // Input first: a bad filter is a 400 for anyone, then only admins read.
      const filter = parseFilter(query);
      const after = parseCursor(query.cursor);
      await requireAdmin(caller, organizationId);
      const rows = await queries.page(organizationId, filter, query.limit + 1, after);
      const items = rows.slice(0, query.limit);
      return { items: items.map(toAuditEventDto), next_cursor: rows.length > query.limit ? cursorOf(items[items.length - 1]!) : null };
    },

    /**
     * The filtered log as CSV records, header first, read in batches along the same keyset as
     * the list (so a long log is never held in memory at once). Checks before the first record.
     */
    async exportCsv(caller: { id: string; email: string }, organizationId: string, query: AuditFilterQuery): Promise<AsyncIterable<string>> {
      const filter = parseFilter(query);
      await requireAdmin(caller, organizationId);
      return (async function* records() {
        yield csvRecord(CSV_COLUMNS);
        let after: AuditCursor | undefined;
        for (;;) {
          const rows = await queries.page(organizationId, filter, EXPORT_BATCH, after);
          let chunk = '';
          for (const row of rows) {
            const event = toAuditEventDto(row);
            chunk += csvRecord([event.occurred_at, event.action, event.actor_email, event.actor_user_id, event.target_email, event.target_user_id, event.ip, event.user_agent, Object.keys(event.detail).length ? JSON.stringify(event.detail) : '']);
          }
          if (chunk) yield chunk;
          if (rows.length < EXPORT_BATCH) return;
          const last = rows[rows.length - 1]!;
          after = { occurredAt: last.occurredAt, id: last.id };
        }
      })();
    },
  };
}

import { adminScopes, type AdminScope, type OperatorAuditEvent, type OperatorRole } from '@portal/contracts';
import type { Database } from '../../db/client';
import { operatorApiKeys } from '../../db/schema';
import { inOneTransaction } from '../../db/scoped-transaction';
import type { Clock } from '../../platform/clock';
import { csvRecord } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import { bearerKeyStore, toKeyDto, type KeyRow } from '../api-keys';
import type { UserRow } from '../users';
import { operatorQueries, type AuditFilter, type NewOperatorAuditRow, type OperatorAuditRow, type OperatorStanding } from './queries';

/** Live keys one operator may hold. */
export const MAX_OPERATOR_KEYS = 20;
const CSV_BATCH = 500;

export type OperatorService = ReturnType<typeof createOperatorService>;

export interface OperatorServiceDependencies {
  db: Database;
  clock: Clock;
  /** The users module's lookup (an operator role goes on an existing account). */
  findUserByEmail(email: string): Promise<UserRow | undefined>;
}

/** Whether holding `held` lets one call an endpoint open to `allowed`: an owner may do everything. */
export function roleAllows(held: readonly OperatorRole[], allowed: readonly OperatorRole[]): boolean {
  return held.includes('owner') || held.some((role) => allowed.includes(role));
}

const knownScopes = (scopes: readonly string[]): AdminScope[] => scopes.filter((scope): scope is AdminScope => (adminScopes as readonly string[]).includes(scope));

export const toOperatorKeyDto = (row: KeyRow) => toKeyDto(row, knownScopes);

export function toAuditDto(row: OperatorAuditRow): OperatorAuditEvent {
  return {
    id: String(row.id),
    occurred_at: row.occurredAt.toISOString(),
    actor_user_id: row.actorUserId,
    actor_email: row.actorEmail,
    via: row.via,
    action: row.action,
    summary: row.summary,
    target: row.target,
    reason: row.reason,
    ip: row.ip,
  };
}

const CSV_HEADER = ['occurred_at', 'actor_email', 'actor_user_id', 'via', 'action', 'summary', 'target', 'reason', 'ip'];
const targetText = (target: Record<string, string>) =>
  Object.entries(target)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');

/** A page cursor is the id of the last entry shown: digits only. */
function parseCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(cursor)) throw new AppError('admin.cursor_invalid');
  return Number(cursor);
}

/**
 * Operators: roles on accounts, their API keys (the personal keys' format, admin scopes only)
 * and the operator audit log. Nothing here is cached: every admin call reads the roles anew.
 */
export function createOperatorService(deps: OperatorServiceDependencies) {
  const { clock } = deps;
  const queries = operatorQueries(deps.db);
  const keys = bearerKeyStore(deps.db, clock, operatorApiKeys);

  async function accountFor(email: string): Promise<UserRow> {
    const user = await deps.findUserByEmail(email.trim().toLowerCase());
    if (!user || !user.activatedAt || user.deletionRequestedAt || user.purgedAt) throw new AppError('admin.account_not_found');
    return user;
  }

  async function operatorDto(user: Pick<UserRow, 'id' | 'email' | 'fullName'>) {
    const rows = (await queries.listOperators()).filter((row) => row.userId === user.id);
    return { user_id: user.id, email: user.email, full_name: user.fullName, roles: rows.map((row) => ({ role: row.role as OperatorRole, granted_at: row.grantedAt.toISOString() })) };
  }

  return {
    standingOf: (userId: string): Promise<OperatorStanding | undefined> => queries.standingOf(userId),
    anyOperator: () => queries.anyOperator(),

    /** Gives an activated account a role (idempotent). */
    async grant(email: string, role: OperatorRole) {
      const user = await accountFor(email);
      await queries.grant(user.id, role, clock.now());
      return operatorDto(user);
    },

    /** Takes a role away; an account left without any role loses its operator keys too. */
    async revoke(userId: string, role: OperatorRole): Promise<void> {
      const outcome = await queries.revoke(userId, role);
      if (outcome === 'not_found') throw new AppError('admin.not_found');
      if (outcome === 'last_owner') throw new AppError('admin.last_owner');
      const standing = await queries.standingOf(userId);
      if (standing && standing.roles.length === 0) await keys.revokeAll(userId);
    },

    /** As `revoke`, for the account of `email`; answers its id. */
    async revokeByEmail(email: string, role: OperatorRole): Promise<string> {
      const user = await deps.findUserByEmail(email.trim().toLowerCase());
      if (!user) throw new AppError('admin.account_not_found');
      await this.revoke(user.id, role);
      return user.id;
    },

    async list() {
      const byUser = new Map<string, { user_id: string; email: string; full_name: string; roles: { role: OperatorRole; granted_at: string }[] }>();
      for (const row of await queries.listOperators()) {
        const entry = byUser.get(row.userId) ?? { user_id: row.userId, email: row.email, full_name: row.fullName, roles: [] };
        entry.roles.push({ role: row.role as OperatorRole, granted_at: row.grantedAt.toISOString() });
        byUser.set(row.userId, entry);
      }
      return [...byUser.values()];
    },

    /** A live operator key and its account, or null; roles are checked by the guard on every call. */
    async authenticateKey(key: string): Promise<{ user: UserRow; keyId: string; scopes: AdminScope[] } | null> {
      const found = await keys.authenticate(key);
      return found && { user: found.user, keyId: found.key.id, scopes: knownScopes(found.key.scopes) };
    },

    /** Creates a key; the secret is in the answer this once and nowhere else. */
    async createKey(userId: string, input: { name: string; scopes: AdminScope[]; expires_in_days?: number }) {
      const made = await keys.create(userId, input, { limit: MAX_OPERATOR_KEYS });
      if (!made) throw new AppError('admin.key_limit_reached', { max: MAX_OPERATOR_KEYS });
      return { ...toOperatorKeyDto(made.row), key: made.key };
    },

    listKeys: async (userId: string) => (await keys.liveKeysOf(userId)).map(toOperatorKeyDto),

    async revokeKey(userId: string, id: string): Promise<void> {
      if (!(await keys.revoke(userId, id))) throw new AppError('admin.not_found');
    },

    record: (row: NewOperatorAuditRow) => queries.record(row),

    /**
     * Runs an operator's action and writes its audit row in one transaction (every module's
     * queries join it: db/scoped-transaction.ts): both commit, or neither, so no change goes
     * unaudited. The row is built after the action, from what it answered.
     */
    recorded<T>(action: () => Promise<T>, row: (answer: T) => NewOperatorAuditRow): Promise<T> {
      return inOneTransaction(deps.db, async () => {
        const answer = await action();
        await queries.record(row(answer));
        return answer;
      });
    },

    async audit(filter: AuditFilter & { cursor?: string; limit: number }) {
      const rows = await queries.audit(filter, filter.limit + 1, parseCursor(filter.cursor));
      const page = rows.slice(0, filter.limit);
      return { events: page.map(toAuditDto), next_cursor: rows.length > filter.limit ? String(page.at(-1)!.id) : null };
    },

    /** The whole filtered log as CSV records (header first), read in batches so memory stays flat. */
    async *auditCsv(filter: AuditFilter): AsyncGenerator<string> {
      yield csvRecord(CSV_HEADER);
      let before: number | undefined;
      for (;;) {
        const rows = await queries.audit(filter, CSV_BATCH, before);
        for (const row of rows) {
          yield csvRecord([row.occurredAt.toISOString(), row.actorEmail, row.actorUserId, row.via, row.action, row.summary, targetText(row.target), row.reason, row.ip]);
        }
        if (rows.length < CSV_BATCH) return;
        before = rows.at(-1)!.id;
      }
    },
  };
}

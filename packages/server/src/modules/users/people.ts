import type { PeopleSearchField, PeopleSearchResult, PersonDetail, PersonStatus, PersonSummary } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import type { RequestOrigin } from '../../platform/request-origin';
import { peopleQueries, type PersonSearchRow, type SearchPosition } from './people-queries';
import { userQueries, type UserRow } from './queries';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a person's page shows from the modules that own it, and the actions they take on an
 * account; bound in app.ts to their services (this module sits below them all).
 */
export interface PeopleDependencies {
  db: Database;
  clock: Clock;
  sessions: {
    list(userId: string): Promise<PersonDetail['sessions']>;
    /** Ends every session of the person, on every node, and what stood on them. */
    revokeAll(userId: string): Promise<number>;
  };
  passkeys(userId: string): Promise<Array<{ name: string | null; created_at: string }>>;
  organizations(user: UserRow): Promise<PersonDetail['organizations']>;
  connectedApps(userId: string): Promise<PersonDetail['connected_apps']>;
  balances(userId: string): Promise<PersonDetail['balances']>;
  orders(userId: string): Promise<PersonDetail['orders']>;
  /** Turns two-step off and mails the person; false when it was off. */
  resetSecondFactors(user: UserRow, origin: RequestOrigin): Promise<boolean>;
  /** Mails a new activation link to an account nobody activated. */
  resendActivation(user: UserRow, origin: RequestOrigin): Promise<void>;
  /** Schedules the deletion and ends the sessions; false when one was scheduled already. */
  startDeletion(user: UserRow, origin: RequestOrigin): Promise<boolean>;
  /** The operator roles an account holds (none for most people). */
  rolesOf(userId: string): Promise<readonly string[]>;
}

/** Who acts: the calling operator's roles (an owner may act on anyone). */
export interface PeopleActor {
  roles: readonly string[];
}

export type PeopleService = ReturnType<typeof createPeopleService>;

export function statusOf(user: Pick<UserRow, 'activatedAt' | 'lockedAt' | 'deletionRequestedAt' | 'purgedAt'>): PersonStatus {
  if (user.purgedAt) return 'deleted';
  if (user.deletionRequestedAt) return 'pending_deletion';
  if (user.lockedAt) return 'locked';
  if (!user.activatedAt) return 'pending_activation';
  return 'active';
}

const summaryOf = (row: Omit<PersonSearchRow, 'key'>): PersonSummary => ({
  id: row.id,
  email: row.email,
  username: row.username,
  full_name: row.fullName,
  status: statusOf(row),
  created_at: row.createdAt.toISOString(),
});

/** The field a query is searched by when the caller did not say: an id when it is one, else an email. */
export const fieldOf = (q: string, by?: PeopleSearchField): PeopleSearchField => by ?? (UUID.test(q) ? 'id' : 'email');

/** The next page's position, opaque to the caller (base64url JSON). */
function encodeCursor(position: SearchPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}

function decodeCursor(cursor: string): SearchPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && UUID.test(value[1]) && value[0].length <= 1000 && !value[0].includes('\0')) {
      return { key: value[0], id: value[1] };
    }
  } catch {
    // Not base64url JSON: refused below like any other wrong cursor.
  }
  throw new AppError('admin.cursor_invalid');
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function createPeopleService(deps: PeopleDependencies) {
  const people = peopleQueries(deps.db);
  const users = userQueries(deps.db);

  async function userOf(id: string): Promise<UserRow> {
    const user = await users.findById(id);
    if (!user) throw new AppError('admin.not_found');
    return user;
  }

  /**
   * The account acted on, when the actor may act on it: an operator's account only by an
   * owner, so support cannot lock an owner out or strip another operator's second factor.
   */
  async function targetOf(id: string, actor: PeopleActor): Promise<UserRow> {
    const user = await userOf(id);
    if (!actor.roles.includes('owner') && (await deps.rolesOf(user.id)).length > 0) throw new AppError('admin.forbidden');
    return user;
  }

  async function detail(user: UserRow): Promise<PersonDetail> {
    const [passkeys, sessions, organizations, connectedApps, balances, orders] = await Promise.all([
      deps.passkeys(user.id),
      deps.sessions.list(user.id),
      deps.organizations(user),
      deps.connectedApps(user.id),
      deps.balances(user.id),
      deps.orders(user.id),
    ]);
    // Kinds and dates only: the TOTP seed and recovery codes never leave the server.
    const secondFactors: PersonDetail['second_factors'] = [
      ...(user.twoFactorMethod === 'totp' || user.twoFactorMethod === 'email' ? [{ kind: user.twoFactorMethod as 'totp' | 'email', name: null, added_at: null }] : []),
      ...passkeys.map((passkey) => ({ kind: 'passkey' as const, name: passkey.name, added_at: passkey.created_at })),
    ];
    return {
      ...summaryOf(user),
      language: user.language,
      activated_at: iso(user.activatedAt),
      locked_at: iso(user.lockedAt),
      deletion_requested_at: iso(user.deletionRequestedAt),
      deletion_due_at: iso(user.deletionDueAt),
      second_factors: secondFactors,
      sessions,
      organizations,
      connected_apps: connectedApps,
      balances,
      orders,
    };
  }

  return {
    /** One page of a search; never more than `limit` rows read past the position. */
    async search(input: { q: string; by?: PeopleSearchField; cursor?: string; limit: number }): Promise<PeopleSearchResult> {
      const q = input.q.trim();
      const by = fieldOf(q, input.by);
      if (by === 'id') {
        // A cursor after the one exact match is the end.
        const rows = UUID.test(q) && !input.cursor ? await people.byId(q.toLowerCase()) : [];
        return { by, people: rows.map(summaryOf), next_cursor: null };
      }
      const after = input.cursor ? decodeCursor(input.cursor) : undefined;
      const rows = await people.byPrefix(by, q.toLowerCase(), input.limit + 1, after);
      const page = rows.slice(0, input.limit);
      const last = page.at(-1);
      return { by, people: page.map(summaryOf), next_cursor: rows.length > input.limit && last ? encodeCursor({ key: last.key, id: last.id }) : null };
    },

    person: async (id: string) => detail(await userOf(id)),

    /** Locks the account, then ends its sessions: the guard refuses a locked account's every credential. */
    async lock(id: string, actor: PeopleActor): Promise<PersonDetail> {
      const user = await targetOf(id, actor);
      await people.lock(user.id, deps.clock.now());
      await deps.sessions.revokeAll(user.id);
      return detail(await userOf(id));
    },

    async unlock(id: string, actor: PeopleActor): Promise<PersonDetail> {
      await people.unlock((await targetOf(id, actor)).id, deps.clock.now());
      return detail(await userOf(id));
    },

    async endSessions(id: string, actor: PeopleActor): Promise<PersonDetail> {
      const user = await targetOf(id, actor);
      await deps.sessions.revokeAll(user.id);
      return detail(user);
    },

    async resetSecondFactors(id: string, actor: PeopleActor, origin: RequestOrigin): Promise<PersonDetail> {
      const user = await targetOf(id, actor);
      if (!(await deps.resetSecondFactors(user, origin))) throw new AppError('admin.person_two_factor_off');
      return detail(await userOf(id));
    },

    async resendActivation(id: string, actor: PeopleActor, origin: RequestOrigin): Promise<PersonDetail> {
      const user = await targetOf(id, actor);
      if (user.activatedAt) throw new AppError('admin.person_already_activated');
      await deps.resendActivation(user, origin);
      return detail(user);
    },

    async startDeletion(id: string, actor: PeopleActor, origin: RequestOrigin): Promise<PersonDetail> {
      const user = await targetOf(id, actor);
      if (user.deletionRequestedAt || user.purgedAt || !(await deps.startDeletion(user, origin))) throw new AppError('admin.person_deletion_pending');
      return detail(await userOf(id));
    },
  };
}

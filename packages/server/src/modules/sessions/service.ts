import { randomUUID } from 'node:crypto';
import { AUTH_TOKEN_LIFETIME_SECONDS } from '@portal/contracts';
import type { Database } from '../../db/client';
import { afterCommit, inOneTransaction, inTransaction } from '../../db/scoped-transaction';
import type { BoundSince } from './sso-since';
import type { Clock } from '../../platform/clock';
import { randomToken, sha256 } from '../../platform/crypto';
import { describeClient } from './client-info';
import type { CachedIdentity, IdentityCache } from './identity-cache';
import { sessionQueries, type SessionAlerts, type SessionHistory, type SessionRow } from './queries';

/** Writing last-active on every request would turn every read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionContext {
  deviceId: string;
  userAgent?: string;
  ip: string;
}

/** The in-memory copy of live sessions, and whether it is being kept fresh right now. */
export interface SessionCache {
  identities: IdentityCache;
  readonly live: boolean;
}

export type SessionService = ReturnType<typeof createSessionService>;

/**
 * Sessions that just ended (sign-out, revoked on the device-activity page, every session at a
 * password reset or a deletion). `everySession` says the whole account was signed out, so what
 * was issued outside any browser session (an app's device sign-in) ends too.
 */
export interface SessionsEnded {
  userId: string;
  sessionIds: string[];
  everySession: boolean;
  /**
   * Company SSO binds the person from this moment (endUnlessSsoSince): what was issued outside
   * any browser session (an app's device sign-in) ends too, unless company SSO signed its
   * approval in since then.
   */
  unlessSsoSince?: Date;
}
export type SessionsEndedListener = (ended: SessionsEnded) => Promise<void>;

/**
 * A rule another module keeps on who may hold a session (company SSO: a member of an
 * organization that requires it, only through its IdP). Asked of every session made, once its
 * insert committed; it throws its refusal, and the session ends before anyone is answered.
 */
export type SessionAdmission = (session: { userId: string; amr: readonly string[] }) => Promise<void>;

export interface SessionPolicy {
  /** A session unused for this long is refused, whatever its 30-day expiry says. */
  idleTimeoutSeconds: number;
}

/** Last-active is written at most once a minute, so idleness is measured to that precision. */
const DEFAULT_POLICY: SessionPolicy = { idleTimeoutSeconds: 7 * 24 * 60 * 60 };

/**
 * Sessions per ARCHITECTURE.md's security model: opaque 256-bit tokens, stored only as SHA-256,
 * 30-day lifetime, one row per browser with what the device-activity page shows.
 */
export function createSessionService(db: Database, clock: Clock, cache?: SessionCache, policy: SessionPolicy = DEFAULT_POLICY) {
  const queries = sessionQueries(db);
  const due = (session: SessionRow, now: Date) => now.getTime() - session.lastActiveAt.getTime() > TOUCH_INTERVAL_MS;
  const idle = (session: SessionRow, now: Date) => now.getTime() - session.lastActiveAt.getTime() > policy.idleTimeoutSeconds * 1000;
  /**
   * This node forgets the user's cached sessions once their revocation committed, without waiting
   * for the database's notification (on PostgreSQL it comes later, on another connection): a
   * sign-out holds here as soon as it answers, on paths outside the read-your-writes hook too,
   * such as the provider's RP-initiated logout. Other nodes forget when the notification arrives.
   */
  const forgetHere = (userId: string) => {
    cache?.identities.evictUser(userId);
    // Inside a transaction (company SSO's sweep), once more after the commit: a request between
    // would have cached the session again from rows that still showed it live.
    if (cache && inTransaction()) void afterCommit(async () => cache.identities.evictUser(userId));
  };

  async function authenticateFromDatabase(tokenHash: string, now: Date): Promise<CachedIdentity | null> {
    const generation = cache?.identities.generation ?? 0;
    const found = await queries.findLive(tokenHash, now);
    if (!found || idle(found.session, now)) return null;
    if (due(found.session, now)) {
      await queries.touch(found.session.id, now);
      found.session.lastActiveAt = now;
    }
    if (cache?.live) cache.identities.store(tokenHash, found, generation);
    return found;
  }

  const endedListeners: SessionsEndedListener[] = [];
  async function ended(event: SessionsEnded): Promise<void> {
    if (event.sessionIds.length === 0 && !event.everySession && !event.unlessSsoSince) return;
    for (const listener of endedListeners) await listener(event);
  }

  async function revoke(userId: string, sessionId: string): Promise<boolean> {
    const revoked = await queries.revoke(userId, sessionId, clock.now());
    forgetHere(userId);
    await ended({ userId, sessionIds: revoked, everySession: false });
    return revoked.length > 0;
  }

  const admissions: SessionAdmission[] = [];
  /**
   * Asks each rule about a session whose insert committed. A rule that changed while its sign-in
   * ran (the membership read before the password check, the session written after) either saw
   * this session when it ended the sessions it forbids, or is seen here: each side writes, then
   * reads, so one of the two reads finds the other's write. Refused: the session ends.
   */
  async function admit(session: SessionRow): Promise<void> {
    for (const rule of admissions) {
      try {
        await rule({ userId: session.userId, amr: session.amr ?? [] });
      } catch (error) {
        await revoke(session.userId, session.id);
        throw error;
      }
    }
  }

  return {
    /** Records a fresh proof of a factor for a session (POST /sso/me/reauth): `secondStep` when it was a code, a recovery code or a passkey. */
    prove: (sessionId: string, secondStep: boolean) => queries.recordProof(sessionId, clock.now(), secondStep),

    /**
     * Whether a session proved a factor within the last `maxAgeSeconds`: its sign-in, or a
     * re-authentication since. With `secondStep`, only the second step counts: a sign-in that
     * passed it (`mfa` in its amr), or a re-authentication by a code, a recovery code or a
     * passkey. Read from the database, never the cache.
     */
    async provedWithin(session: SessionRow, maxAgeSeconds: number, secondStep = false): Promise<boolean> {
      const proof = await queries.lastProof(session.id);
      const signedIn = !secondStep || (session.amr ?? []).includes('mfa') ? session.createdAt.getTime() : 0;
      const proved = (secondStep ? proof?.secondStepAt : proof?.provedAt)?.getTime() ?? 0;
      return clock.now().getTime() - Math.max(signedIn, proved) <= maxAgeSeconds * 1000;
    },

    /** Called after sessions end (the OIDC provider ends what stood on them). */
    onEnded(listener: SessionsEndedListener): void {
      endedListeners.push(listener);
    },

    /** A rule every new session must pass once written (SessionAdmission). */
    admitWith(rule: SessionAdmission): void {
      admissions.push(rule);
    },

    /**
     * A new session, and what the user had before it (see SessionHistory). `amr`: how the
     * person authenticated; `alerts`: the security alerts the session means for the owner
     * (given the row, for what it says of the device), written in the same statement.
     */
    async create(
      userId: string,
      context: SessionContext,
      amr: readonly string[] = [],
      alerts?: (session: SessionRow) => SessionAlerts,
    ): Promise<{ token: string; session: SessionRow; history: SessionHistory }> {
      const token = randomToken();
      const now = clock.now();
      const session: SessionRow = {
        id: randomUUID(),
        userId,
        tokenHash: sha256(token),
        deviceId: context.deviceId,
        ...describeClient(context.userAgent, context.ip),
        createdAt: now,
        lastActiveAt: now,
        expiresAt: new Date(now.getTime() + AUTH_TOKEN_LIFETIME_SECONDS * 1000),
        revokedAt: null,
        amr: [...amr],
      };
      const history = await queries.insert(session, alerts?.(session));
      // Inside a transaction (a restore cancels the deletion with its session) asked there too:
      // a refusal rolls back what was to come with the session. And after the commit, whose
      // read alone pairs with a rule's sweep (one made inside would not see it commit later).
      if (inTransaction()) await admit(session);
      await afterCommit(() => admit(session));
      return { token, session, history };
    },

    /**
     * The live session a token belongs to, with its user; null for unknown, revoked or expired
     * tokens. Answered from memory, synchronously, when the cache is live and holds it, unless
     * `fresh`: requests that may change the account read the database, so their checks never
     * rest on a copy.
     */
    authenticate(token: string, fresh = false): CachedIdentity | null | Promise<CachedIdentity | null> {
      const now = clock.now();
      const tokenHash = sha256(token);
      const cached = cache?.live && !fresh ? cache.identities.get(tokenHash) : undefined;
      if (!cached) return authenticateFromDatabase(tokenHash, now);
      if (cached.session.expiresAt <= now || idle(cached.session, now)) return null;
      if (due(cached.session, now)) {
        // Last-active is for the device list; a failed write must not refuse a valid session.
        cached.session.lastActiveAt = now;
        queries.touch(cached.session.id, now).catch(() => undefined);
      }
      return cached;
    },

    touch: (sessionId: string) => queries.touch(sessionId, clock.now()),
    /** The sessions authenticate would accept: one idle past the timeout is over, whatever its expiry says. */
    list: (userId: string) => {
      const now = clock.now();
      return queries.listLive(userId, now, new Date(now.getTime() - policy.idleTimeoutSeconds * 1000));
    },
    /** Ends one of a user's sessions; false when it was not theirs or already gone. */
    revoke,
    /**
     * Ends the sessions of these people that company SSO did not sign in since `since` (their
     * organization requires it: password, code, passkey and social sessions, and SSO sessions
     * older than their membership, which another IdP vouched for). What stood on them ends with
     * them; a person left without any session is signed out everywhere (their apps' device
     * sign-ins too). `alongside`: what ends with them in the same transaction (company SSO's
     * API keys), after the sessions: all of it commits, or none. How many sessions ended.
     */
    async endUnlessSsoSince(people: readonly BoundSince[], alongside?: () => Promise<unknown>): Promise<number> {
      return inOneTransaction(db, async () => {
        const revoked = await queries.revokeUnlessSsoSince(people, clock.now());
        const byUser = new Map<string, { sessionIds: string[]; kept: boolean }>();
        for (const row of revoked) {
          const ended = byUser.get(row.userId) ?? { sessionIds: [], kept: row.kept };
          ended.sessionIds.push(row.id);
          byUser.set(row.userId, ended);
        }
        // Everyone swept hears of it, sessions ended or not: an app's device sign-in approved on a
        // session that ended before (or on none of these) ends too. The latest join counts.
        const latest = new Map<string, Date>();
        for (const { userId, since } of people) {
          const known = latest.get(userId);
          if (!known || since > known) latest.set(userId, since);
        }
        for (const [userId, since] of latest) {
          const revokedOf = byUser.get(userId);
          if (revokedOf) forgetHere(userId);
          await ended({ userId, sessionIds: revokedOf?.sessionIds ?? [], everySession: revokedOf ? !revokedOf.kept : false, unlessSsoSince: since });
        }
        await alongside?.();
        return revoked.length;
      });
    },
    /** Ends every session of a user but `exceptSessionId`; how many ended. */
    async revokeAll(userId: string, exceptSessionId?: string): Promise<number> {
      const revoked = await queries.revokeAll(userId, clock.now(), exceptSessionId);
      forgetHere(userId);
      await ended({ userId, sessionIds: revoked, everySession: !exceptSessionId });
      return revoked.length;
    },
  };
}

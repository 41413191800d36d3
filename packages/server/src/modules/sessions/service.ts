import { randomUUID } from 'node:crypto';
import { AUTH_TOKEN_LIFETIME_SECONDS } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { randomToken, sha256 } from '../../platform/crypto';
import { describeClient } from './client-info';
import { sessionQueries, type SessionRow } from './queries';

/** Writing last-active on every request would turn every read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionContext {
  deviceId: string;
  userAgent?: string;
  ip: string;
}

export type SessionService = ReturnType<typeof createSessionService>;

/**
 * Sessions per ARCHITECTURE.md's security model: opaque 256-bit tokens, stored only as SHA-256,
 * 30-day lifetime, one row per browser with what the device-activity page shows.
 */
export function createSessionService(db: Database, clock: Clock) {
  const queries = sessionQueries(db);
  return {
    async create(userId: string, context: SessionContext): Promise<{ token: string; session: SessionRow }> {
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
      };
      await queries.insert(session);
      return { token, session };
    },

    /** The live session a token belongs to, with its user; null for unknown, revoked or expired tokens. */
    async authenticate(token: string) {
      const now = clock.now();
      const found = await queries.findLive(sha256(token), now);
      if (!found) return null;
      if (now.getTime() - found.session.lastActiveAt.getTime() > TOUCH_INTERVAL_MS) {
        await queries.touch(found.session.id, now);
      }
      return found;
    },

    touch: (sessionId: string) => queries.touch(sessionId, clock.now()),
    list: (userId: string) => queries.listLive(userId, clock.now()),
    revoke: (userId: string, sessionId: string) => queries.revoke(userId, sessionId, clock.now()),
    revokeAll: (userId: string, exceptSessionId?: string) => queries.revokeAll(userId, clock.now(), exceptSessionId),
  };
}

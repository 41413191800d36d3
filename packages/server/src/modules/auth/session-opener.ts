import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { Mailer } from '../../platform/mail';
import type { RequestOrigin } from '../../platform/request-origin';
import { deletionGate } from '../account/deletion';
import { recordNewDeviceSignIn } from '../notifications/service';
import type { SessionService } from '../sessions/service';
import type { UserRow } from '../users';

export interface SessionOpenerDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionService;
  log: { error(object: unknown, message: string): void };
}

/**
 * The one door from "every factor passed" to a session, whichever way the user signed in
 * (password, email code, passkey, second-factor step): accounts scheduled for deletion are
 * offered a restore instead, and a sign-in from a device never seen before alerts the owner.
 */
export function createSessionOpener(deps: SessionOpenerDependencies) {
  return async function openSession(user: UserRow, origin: RequestOrigin): Promise<{ token: string }> {
    await deletionGate(deps, user, origin);
    const { token, session, history } = await deps.sessions.create(user.id, origin);
    await recordNewDeviceSignIn(deps, user, session, history, origin);
    return { token };
  };
}

export type SessionOpener = ReturnType<typeof createSessionOpener>;

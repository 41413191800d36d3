import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Clock } from './clock';
import type { Mailer } from './mail';
import type { RateLimiter } from './rate-limit';

/** What a service that mails invitations is given: its tables, the time, the links' origins, the mailer and the limits on how many it sends. */
export interface InvitationServiceDependencies {
  db: Database;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  limiter: RateLimiter;
  /** Where a mail that could not be sent in the background is told. */
  log: { error(object: unknown, message: string): void };
}

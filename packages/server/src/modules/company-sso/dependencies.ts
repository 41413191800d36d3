import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { DataProtection } from '../../platform/data-protection';
import type { EgressPolicy } from '../../platform/egress';
import type { Mailer } from '../../platform/mail';
import type { RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import type { WayIn } from '../auth';
import type { OrganizationRow } from '../organizations';
import type { SessionService, SignInResult } from '../sessions';
import type { TxtLookup } from './domains';

/** What company SSO asks of the organizations module (bound in app.ts and the CLI). */
export interface Organizations {
  resolve(nameOrEmail: string | undefined): Promise<OrganizationRow>;
  membershipOf(email: string): Promise<OrganizationRow | undefined>;
  /** The organization's name (for the link page), or undefined when it is gone. */
  nameOf(organizationId: string): Promise<string | undefined>;
  /**
   * Adds a member; `via: 'sso'` records the just-in-time membership in the audit log. Called
   * inside a transaction of the (transaction-scoped) database, its row and audit entry join it.
   */
  addMember(organizationId: string, email: string, userId: string | null, via: 'sso'): Promise<boolean>;
}

export interface CompanySsoDependencies {
  config: Config;
  /** Transaction-scoped (app.ts): a new person's account, link and membership commit together, the organizations module's writes included. */
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  secrets: DataProtection;
  organizations: Organizations;
  log: { warn(object: unknown, message: string): void; error?(object: unknown, message: string): void };
  /** Mails the domain proofs (the settings page's alternative to the TXT record). */
  mailer?: Mailer;
  /** Ends members' sessions its IdP did not sign in once SSO is required of them (sessions module: what stood on them ends too). */
  sessions: Pick<SessionService, 'endUnlessSsoSince'>;
  /** The sign-in pipeline (auth module): company SSO ends like every other way in. */
  signIn: { run<Input>(way: WayIn<Input>, input: Input, origin: RequestOrigin): Promise<SignInResult> };
  /** DNS TXT lookups (tests may pass their own; by default COMPANY_SSO_DNS_SERVER or the system's). */
  txtLookup?: TxtLookup;
  /** The rule for requests to the issuers organizations set; by default the configuration's (egressPolicyFor). */
  egress?: EgressPolicy;
}

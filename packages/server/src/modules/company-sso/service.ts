import { afterCommit } from '../../db/scoped-transaction';
import { record } from '../audit';
import { revokeApiKeysUnlessSsoSince } from '../api-keys';
import { administeredOrganizations, memberAccounts, organizationOfMember } from '../organizations';
import { signedInThroughSso, type BoundSince } from '../sessions';
import type { UserRow } from '../users';
import { createOneTimeTokens } from '../../platform/one-time-tokens';
import { egressPolicyFor } from '../../platform/egress';
import { AppError } from '../../platform/errors';
import { companySsoAccounts } from './accounts';
import type { CompanySsoDependencies } from './dependencies';
import { dnsTxtLookup } from './domains';
import { normalizeIdentifier } from './identifier';
import { companySsoOperatorCommands } from './operator-commands';
import { companySsoQueries } from './queries';
import { companySsoSettings, DOMAIN_PROOF_PURPOSE } from './settings';
import { companySsoSignIn, serviceProviderUrls } from './sign-in';

export { CompanySsoAdminError } from './operator-commands';
export { normalizeIdentifier } from './identifier';
export type { CompanySsoDependencies, Organizations } from './dependencies';

export type CompanySsoService = ReturnType<typeof createCompanySsoService>;

/**
 * Company SSO: an organization's identity provider (OpenID Connect or SAML 2.0), found by the
 * organization's SSO identifier or an email of a domain it verified. A returning member is
 * signed in by the IdP's subject while still a member; anyone else by email only when this
 * organization verified the email's domain (its IdP speaks for that domain, and no other): a
 * member's existing account is linked; a new person gets an active account, its link and the
 * membership at once; any other existing account is left alone until its owner signs in and
 * confirms the link (accounts.ts). Every sign-in ends in the one pipeline (sign-in.ts).
 * Operators configure it by command (operator-commands.ts); owners and admins on the settings
 * screen (settings.ts).
 */
export function createCompanySsoService(deps: CompanySsoDependencies) {
  const { config, clock } = deps;
  const queries = companySsoQueries(deps.db);
  const txtLookup = deps.txtLookup ?? dnsTxtLookup(config.COMPANY_SSO_DNS_SERVER);
  const egress = deps.egress ?? egressPolicyFor(config);
  const { samlUrls, registrationUrls } = serviceProviderUrls(config);
  const accounts = companySsoAccounts(deps, queries);
  const logError = (object: unknown, message: string) => (deps.log.error ?? deps.log.warn).call(deps.log, object, message);

  /**
   * The organization whose SSO settings this person may see and change: the one they are a
   * member of, as its owner or admin (or its creator, for organizations made before roles).
   */
  async function administeredBy(user: { id: string; email: string }): Promise<{ id: string; name: string }> {
    const administered = await administeredOrganizations(deps.db, user.id, user.email);
    const memberOf = await organizationOfMember(deps.db, user.email);
    const organization = administered.find((item) => item.id === memberOf) ?? administered[0];
    if (organization) return organization;
    throw new AppError(memberOf ? 'organizations.forbidden' : 'organizations.not_member');
  }

  /**
   * SSO is required of the organization's members (or of one who just joined): their sessions
   * its IdP did not sign in since they joined end, with the provider sessions and tokens that
   * stood on them, on every node. How many ended.
   */
  async function endSessionsWithoutSso(organizationId: string, email?: string): Promise<number> {
    return endUnlessSsoSince(await memberAccounts(deps.db, organizationId, email));
  }

  /**
   * What these people hold that their IdP did not vouch for since `since`: sessions (what stood on
   * them ends too) and personal API keys, in one transaction. Keys after sessions: a key being
   * made locks its session (the key store's create), so the key sweep finds every key made on a
   * session this one ended. How many sessions ended.
   */
  async function endUnlessSsoSince(people: BoundSince[]): Promise<number> {
    if (people.length === 0) return 0;
    return deps.sessions.endUnlessSsoSince(people, () => revokeApiKeysUnlessSsoSince(deps.db, people, clock.now()));
  }

  return {
    samlUrls,
    registrationUrls,
    administeredBy,
    pendingLink: accounts.pendingLink,
    confirmLink: accounts.confirmLink,

    /** The settings screen's reads and changes, for an organization `administeredBy` answered. */
    settings: companySsoSettings({
      queries,
      secrets: deps.secrets,
      clock,
      txtLookup,
      egress,
      normalizeIdentifier,
      registrationUrls,
      tokens: createOneTimeTokens<typeof DOMAIN_PROOF_PURPOSE>({ db: deps.db, clock, limiter: deps.limiter }),
      mailer: deps.mailer,
      limiter: deps.limiter,
      log: { error: logError },
      endSessionsWithoutSso: (organizationId) => endSessionsWithoutSso(organizationId),
      // Each change goes to the organization's audit log; a failed entry is logged, the change stays (as membership changes).
      onChanged: async (change) => {
        try {
          await record({ db: deps.db, clock }, { organizationId: change.organizationId, action: change.action, actor: { userId: change.actor.id ?? null, email: change.actor.email }, origin: change.actor.origin ?? null, detail: change.detail });
        } catch {
          logError({ audit: { action: change.action } }, 'organization audit event not recorded');
        }
      },
    }),

    ...companySsoOperatorCommands(deps, queries, txtLookup, egress, (organizationId) => endSessionsWithoutSso(organizationId)),

    /** A person became a member (organizations module): where SSO is required, their sessions the organization's IdP did not sign in end, the one they joined on included. */
    async memberJoined(organizationId: string, email: string): Promise<void> {
      // Once the membership committed (a confirmed link joins in a transaction): read inside it,
      // a requirement turned on meanwhile is missed on both sides, its sweep not seeing the
      // uncommitted member. And what the ending does beyond the database (this node's caches,
      // apps' back-channel logouts) waits for a membership that cannot roll back.
      await afterCommit(async () => {
        if ((await queries.connectionOf(organizationId))?.requireSso) await endSessionsWithoutSso(organizationId, email);
      });
    },

    /**
     * A session just made (sessions' admission rule, asked once it committed): refused when an
     * organization that requires SSO binds the account and its IdP did not sign this one in. The
     * sign-in's own step refused most such sessions before; this one catches the requirement
     * turned on, or the membership made, while the sign-in ran.
     */
    async admitSession(session: { userId: string; amr: readonly string[] }): Promise<void> {
      if (!signedInThroughSso(session.amr) && (await queries.ssoRequiredOf(session.userId))) throw new AppError('sso.required', {}, { sso_url: '/login/sso' });
    },

    /**
     * The account's email changed (account module). An address the organization added before any
     * account held it (a row naming no account) makes this account that member from now: where SSO
     * is required, its sessions end as a joiner's do, SSO sessions from before this moment too.
     */
    async emailChanged(user: { id: string; email: string }): Promise<void> {
      if (await queries.pendingRowRequiresSso(user.email)) await endUnlessSsoSince([{ userId: user.id, since: clock.now() }]);
    },

    /** The account's organization, and whether it requires SSO (then a password or email code may not sign it in). */
    membershipOf: (user: UserRow) => queries.membershipOf(user),
    /** The account a password sign-in names, with its membership (one statement). */
    accountWithMembership: (identifier: string) => queries.accountWithMembership(identifier),

    ...companySsoSignIn(deps, queries, egress, accounts.accountFor),
  };
}

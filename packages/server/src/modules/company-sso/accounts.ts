import { randomUUID } from 'node:crypto';
import type { CompanySsoLinkConfirmed } from '@portal/contracts';
import { inOneTransaction } from '../../db/scoped-transaction';
import { AppError } from '../../platform/errors';
import { createUserService, type UserRow } from '../users';
import { claimRefusal } from './claimable';
import type { CompanySsoDependencies } from './dependencies';
import type { CompanySsoQueries, ConnectionRow } from './queries';
import { PENDING_LINK_TTL_SECONDS, sealedReader, type PendingLink } from './sealed';

/**
 * The identity provider named the email of an existing account that is not the organization's
 * member: nothing is linked or joined. `sealed` (the pending link) goes to this browser's cookie
 * only, never in the answer; the account's owner signs in their own way and confirms.
 */
export class LinkRequired extends AppError {
  declare readonly sealed: string;
  constructor(sealed: string, email: string, organization: string) {
    super('sso.link_required', { email, organization }, { email, organization });
    // Not enumerable: an error logged or serialised anywhere never carries the pending link.
    Object.defineProperty(this, 'sealed', { value: sealed, enumerable: false });
  }
}

/** Who the organization's identity provider says signed in. */
export interface AssertedIdentity {
  subject: string;
  email: string | null;
  name: string;
}

/**
 * Which account an organization's IdP signs in, and the links and just-in-time memberships that
 * come with it: a returning member by the IdP's subject; a member's existing account linked; a
 * new person's account, link and membership made together; anyone else's account only once its
 * owner confirms the link.
 */
export function companySsoAccounts(deps: Pick<CompanySsoDependencies, 'db' | 'clock' | 'secrets' | 'organizations'>, queries: CompanySsoQueries) {
  const { clock, secrets } = deps;
  const users = createUserService(deps.db);
  const openSealed = sealedReader(secrets, clock);

  /** The email an IdP names, lower-cased, when its organization proved the domain (and may claim it at all). */
  async function vouchedEmail(organizationId: string, asserted: string | null): Promise<string> {
    const email = asserted?.trim().toLowerCase();
    if (!email || !email.includes('@')) throw new AppError('sso.email_missing');
    const domain = email.slice(email.lastIndexOf('@') + 1);
    // The IdP speaks only for the domains its organization proved it controls (never a free-mail domain or a public suffix, even one proved before they were refused).
    if (claimRefusal(domain) || !(await queries.verifiedBy(organizationId, domain))) throw new AppError('sso.domain_not_verified', { email }, { email });
    const membership = await deps.organizations.membershipOf(email);
    if (membership && membership.id !== organizationId) throw new AppError('sso.member_elsewhere', { email }, { email });
    return email;
  }

  /** Links the IdP's subject to the account; a subject linked to another account meanwhile is refused. */
  async function linkSubject(organizationId: string, subject: string, user: { id: string }, email: string): Promise<void> {
    const now = clock.now();
    if (await queries.link({ organizationId, subject, userId: user.id, email, linkedAt: now, lastUsedAt: now })) return;
    const again = await queries.findIdentity(organizationId, subject);
    if (again?.userId !== user.id) throw new AppError('sso.account_unverified', { email }, { email });
  }

  /**
   * Links the subject and makes the account a member, in one transaction (the caller's, when it
   * runs in one): a link is never written without the membership. "Linked, not a member" is how
   * a person removed from the organization reads, refused for good, so a failure between the two
   * must leave neither. Joined another organization meanwhile: refused, nothing linked.
   */
  async function linkAsMember(organizationId: string, subject: string, user: { id: string }, email: string): Promise<void> {
    await inOneTransaction(deps.db, async () => {
      await linkSubject(organizationId, subject, user, email);
      if (await queries.isMember(organizationId, user.id, email)) return;
      if (!(await deps.organizations.addMember(organizationId, email, user.id, 'sso'))) throw new AppError('sso.member_elsewhere', { email }, { email });
    });
  }

  /**
   * The account an asserted identity signs in. By subject only while the person is still a
   * member of this organization (a link without the membership is a person removed or gone:
   * never provisioned again); else by an email of a domain this organization verified: a
   * member's existing account is linked, a new person gets an account, its link and the
   * membership (just in time, together); an existing account of anyone else is never signed in,
   * linked or joined by the IdP (its owner signs in their own way and confirms: LinkRequired).
   */
  async function accountFor(connection: ConnectionRow, identity: AssertedIdentity): Promise<UserRow> {
    const now = clock.now();
    const organizationId = connection.organizationId;
    const linked = await queries.findIdentity(organizationId, identity.subject);
    if (linked) {
      const user = await users.findById(linked.userId);
      if (!user || user.purgedAt) throw new AppError('1002');
      // Removed or left: the organization's IdP no longer speaks for them, from that moment.
      if (!(await queries.isMember(organizationId, user.id, user.email))) throw new AppError('sso.not_member');
      await queries.touch(organizationId, identity.subject, now);
      return user;
    }
    const email = await vouchedEmail(organizationId, identity.email);
    const existing = await users.findByEmail(email);
    if (existing) {
      // Nobody proved this mailbox: a stranger may have registered the address first.
      if (!existing.activatedAt || existing.purgedAt) throw new AppError('sso.account_unverified', { email }, { email });
      if (!(await queries.isMember(organizationId, existing.id, existing.email))) {
        const organizationName = (await deps.organizations.nameOf(organizationId)) ?? '';
        const pending: PendingLink = { organizationId, organizationName, subject: identity.subject, email, expiresAt: now.getTime() + PENDING_LINK_TTL_SECONDS * 1000 };
        throw new LinkRequired(secrets.seal(JSON.stringify(pending)), email, organizationName);
      }
      await linkSubject(organizationId, identity.subject, existing, email);
      return existing;
    }
    const id = randomUUID();
    const name = identity.name.trim().slice(0, 100) || email.split('@')[0]!;
    const language = 'en';
    // The account, its link and the membership commit together, before the sign-in: a failure
    // anywhere (here or in the sign-in after) never leaves the account linked without the
    // membership, and a parallel sign-in (another tab) sees all three or none.
    await inOneTransaction(deps.db, async () => {
      if (!(await users.insert({ id, email, fullName: name, passwordHash: null, language, customerLanguage: language, activatedAt: now, createdAt: now, updatedAt: now }))) return;
      await linkAsMember(organizationId, identity.subject, { id }, email);
    });
    const user = await users.findByEmail(email);
    if (!user?.activatedAt) throw new AppError('sso.account_unverified', { email }, { email });
    // Made meanwhile: by a parallel sign-in of this same subject (a second tab) it is theirs, linked and a member; by anyone else, not ours to provision.
    if (user.id !== id && (await queries.findIdentity(organizationId, identity.subject))?.userId !== user.id) throw new AppError('sso.account_unverified', { email }, { email });
    return user;
  }

  /** The link this browser holds, for the signed-in account it names (anyone else's is refused). */
  function pendingLinkFor(user: { email: string }, sealed: string | undefined): PendingLink {
    const pending = openSealed<PendingLink>(sealed);
    if (!pending?.subject) throw new AppError('sso.link_invalid');
    if (pending.email !== user.email.trim().toLowerCase()) throw new AppError('sso.link_other_account', { email: pending.email }, { email: pending.email });
    return pending;
  }

  return {
    accountFor,

    /** What the link page shows: the organization whose IdP named this account's email. */
    pendingLink(user: { email: string }, sealed: string | undefined) {
      const pending = pendingLinkFor(user, sealed);
      return { organization_name: pending.organizationName, email: pending.email };
    },

    /**
     * The account's owner, signed in their own way (recently), confirms the link: the IdP's
     * subject is linked to their account and they join the organization. The organization's
     * claim on the domain and the one-organization rule are checked again now.
     *
     * `sso_required` says whether the organization requires SSO, so the confirming session
     * (not one its IdP signed in) ended with the join. Read the way the join's hook reads it
     * (memberJoined), once the membership committed and that hook ran: a requirement turned on
     * while the join committed, which ends the session too, is read as on. Only one turned off
     * again in the moment between the hook's read and this one reads as off.
     */
    async confirmLink(user: UserRow, sealed: string | undefined): Promise<CompanySsoLinkConfirmed> {
      const pending = pendingLinkFor(user, sealed);
      if (!(await queries.connectionOf(pending.organizationId))) throw new AppError('sso.link_invalid');
      const email = await vouchedEmail(pending.organizationId, pending.email);
      await linkAsMember(pending.organizationId, pending.subject, user, email);
      const ssoRequired = (await queries.connectionOf(pending.organizationId))?.requireSso === true;
      return { organization_name: pending.organizationName, email, sso_required: ssoRequired };
    },
  };
}

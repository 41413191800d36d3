import { organizationRoles, type OrganizationRole, type productEndpoints } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { roleIn, updateRole, withOrganizationLocked, type MemberJoinedHook, type MembershipChange, type MembershipChangeHook } from './members';
import { organizationQueries, type DeploymentRow, type OrganizationRow } from './queries';

export type OrganizationService = ReturnType<typeof createOrganizationService>;

/** What the on-premise lookup asks of the accounts (users and passkeys modules, bound in app.ts). */
export interface MemberAccounts {
  /** The account of this email, if one exists: its id and avatar URL (null without a picture). */
  accountOf(email: string): Promise<{ userId: string; avatarUrl: string | null } | undefined>;
  /** How many passkeys the account has. */
  passkeyCount(userId: string): Promise<number>;
}

const noAccounts: MemberAccounts = { accountOf: async () => undefined, passkeyCount: async () => 0 };

/** A refusal of an operator command: its message is printed as is. */
export class OrganizationAdminError extends Error {
  override readonly name = 'OrganizationAdminError';
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An operator's URL, checked: absolute, no credentials, https (the login page may be plain
 * http on this machine's loopback only, for development and tests). Trailing slashes of a
 * bare path go.
 */
export function deploymentUrl(value: string | undefined, option: string, allowLoopbackHttp: boolean): string {
  if (!value?.trim()) throw new OrganizationAdminError(`${option} is required`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new OrganizationAdminError(`${option} must be an absolute URL (https://...)`);
  }
  const loopbackHttp = allowLoopbackHttp && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) throw new OrganizationAdminError(`${option} must be an https URL${allowLoopbackHttp ? ' (or http on localhost)' : ''}`);
  if (url.username || url.password) throw new OrganizationAdminError(`${option} must not carry a user name or password`);
  if (url.hash) throw new OrganizationAdminError(`${option} must not have a #fragment`);
  const text = url.toString();
  return url.search ? text : text.replace(/\/+$/, '');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkedEmail(value: string | undefined, what: string): string {
  const email = value?.trim().toLowerCase() ?? '';
  if (!EMAIL.test(email) || email.length > 254) throw new OrganizationAdminError(`${what} must be an email address`);
  return email;
}

/**
 * Organizations (enterprises), minimal: a company, its admin and members by email. An email
 * belongs to at most one organization (the spec's permissions: an email in an enterprise cannot start
 * a business trial). Social login and company SSO will hang their settings on these rows; an
 * organization that runs its own (on-premise) server registers it here.
 */
export function createOrganizationService(deps: {
  db: Database;
  clock: Clock;
  accounts?: MemberAccounts;
  /** Told of every member this service adds and every role it changes (app.ts and the CLI bind it to the audit log). */
  onMembershipChanged?: MembershipChangeHook;
  /** Told of every member this service adds (company SSO's, bound in app.ts and the CLI; tests that only make organizations leave it out). */
  memberJoined?: MemberJoinedHook;
  log?: { error(object: unknown, message: string): void };
}) {
  const queries = organizationQueries(deps.db);
  const accounts = deps.accounts ?? noAccounts;

  /** Reports a change to the hook; a failing hook is logged (no person, only the error's name) and the change stays. */
  async function report(change: MembershipChange): Promise<void> {
    try {
      await deps.onMembershipChanged?.(change);
    } catch (error) {
      deps.log?.error({ action: change.action, error: (error as Error).name }, 'membership change not reported');
    }
  }

  /** An organization by its name, or by the email of its admin (or any member). */
  async function resolve(nameOrEmail: string | undefined): Promise<OrganizationRow> {
    const value = nameOrEmail?.trim() ?? '';
    if (!value) throw new OrganizationAdminError('name the organization (its name or its admin email)');
    if (value.includes('@')) {
      const organization = await queries.membershipOf(value);
      if (!organization) throw new OrganizationAdminError(`${value.toLowerCase()} is not in any organization`);
      return organization;
    }
    const found = await queries.findByName(value);
    if (found.length === 0) throw new OrganizationAdminError(`no organization is named ${value}`);
    if (found.length > 1) throw new OrganizationAdminError(`several organizations are named ${value}: name it by its admin email`);
    return found[0]!;
  }

  return {
    membershipOf: (email: string) => queries.membershipOf(email),
    nameOf: async (organizationId: string) => (await queries.byId(organizationId))?.name,
    // A new organization has no SSO connection yet, so nothing requires SSO of its first member (memberJoined).
    create: (input: { name: string; adminEmail: string; adminUserId: string | null }) => queries.createWithAdmin(input, deps.clock.now()),
    /**
     * Adds a member (role member) unless the email is in an organization already. `via` says who
     * added it for the audit log: `sso` (just-in-time membership: the person is the actor).
     */
    async addMember(organizationId: string, email: string, userId: string | null = null, via?: 'sso'): Promise<boolean> {
      const added = await queries.addMember(organizationId, email, userId, deps.clock.now());
      if (added && via) await report({ organizationId, actorUserId: userId, action: 'member_joined', targetEmail: email.trim().toLowerCase(), detail: { role: 'member', via } });
      if (added) await deps.memberJoined?.(organizationId, email);
      return added;
    },
    resolve,

    /** `organizations create <name> --admin <email>` */
    async createNamed(input: { name: string | undefined; adminEmail: string | undefined }): Promise<OrganizationRow> {
      const name = input.name?.trim() ?? '';
      if (!name || name.length > 200) throw new OrganizationAdminError('the organization needs a name (at most 200 characters)');
      if (name.includes('@')) throw new OrganizationAdminError('an organization name cannot contain @');
      const adminEmail = checkedEmail(input.adminEmail, '--admin');
      const account = await accounts.accountOf(adminEmail);
      const created = await queries.createWithAdmin({ name, adminEmail, adminUserId: account?.userId ?? null }, deps.clock.now());
      if (!created) throw new OrganizationAdminError(`${adminEmail} is already in an organization`);
      return created;
    },

    /** `organizations add-member <org> <email>` */
    async addMemberTo(nameOrEmail: string | undefined, email: string | undefined): Promise<{ organization: OrganizationRow; email: string }> {
      const organization = await resolve(nameOrEmail);
      const member = checkedEmail(email, 'the member');
      const account = await accounts.accountOf(member);
      if (!(await queries.addMember(organization.id, member, account?.userId ?? null, deps.clock.now()))) throw new OrganizationAdminError(`${member} is already in an organization`);
      await report({ organizationId: organization.id, actorUserId: null, action: 'member_joined', targetEmail: member, detail: { role: 'member', via: 'operator' } });
      await deps.memberJoined?.(organization.id, member);
      return { organization, email: member };
    },

    /** `organizations role <org> <email> <owner|admin|member>`: the last owner is never demoted (the same locked statement as the page's). */
    async setRoleOf(nameOrEmail: string | undefined, email: string | undefined, role: string | undefined): Promise<{ organization: OrganizationRow; email: string; from: OrganizationRole; to: OrganizationRole }> {
      const organization = await resolve(nameOrEmail);
      const member = checkedEmail(email, 'the member');
      if (!organizationRoles.includes(role as OrganizationRole)) throw new OrganizationAdminError(`the role must be one of ${organizationRoles.join(', ')}`);
      const to = role as OrganizationRole;
      const from = await withOrganizationLocked(deps.db, organization.id, async (tx) => {
        const current = await roleIn(tx, organization.id, member);
        if (!current) throw new OrganizationAdminError(`${member} is not a member of ${organization.name}`);
        if (current !== to && !(await updateRole(tx, organization.id, member, to))) throw new OrganizationAdminError(`${member} is the last owner of ${organization.name}: make another member an owner first`);
        return current;
      });
      if (from !== to) await report({ organizationId: organization.id, actorUserId: null, action: 'role_changed', targetEmail: member, detail: { from, to, via: 'operator' } });
      return { organization, email: member, from, to };
    },

    /** `organizations onpremise <org> --base-api ... --login-url ...`: registers or updates the deployment. */
    async registerDeployment(input: {
      organization: string | undefined;
      baseApi: string | undefined;
      loginUrl: string | undefined;
      activated: boolean;
      requirePasswordless: boolean;
    }): Promise<{ organization: OrganizationRow; deployment: DeploymentRow }> {
      const baseApi = deploymentUrl(input.baseApi, '--base-api', false);
      const loginUrl = deploymentUrl(input.loginUrl, '--login-url', true);
      const organization = await resolve(input.organization);
      const deployment = await queries.upsertDeployment(organization.id, { baseApi, loginUrl, activated: input.activated, requirePasswordless: input.requirePasswordless }, deps.clock.now());
      return { organization, deployment };
    },

    /**
     * The on-premise results for an email (the spec's entities and call list): one for the organization it is
     * a member of when that organization registered a deployment; empty otherwise, the same for
     * unknown emails as for members of organizations without one.
     */
    async onPremiseFor(email: string): Promise<productEndpoints.OnPremiseResult[]> {
      const member = await queries.deploymentOfMember(email);
      if (!member) return [];
      const { deployment } = member;
      const account = await accounts.accountOf(member.email);
      const needsPasskey = deployment.requirePasswordless && (!account || (await accounts.passkeyCount(account.userId)) === 0);
      return [
        {
          activated: deployment.activated,
          base_api: deployment.baseApi,
          email: member.email,
          avatar: account?.avatarUrl ?? null,
          require_passwordless: deployment.requirePasswordless,
          set_up_passwordless: needsPasskey,
          login_url: deployment.loginUrl,
        },
      ];
    },
  };
}

import { originFor } from '../../platform/brand';
import type { Late, Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { withSessions, type SessionsMade } from '../sessions';
import { toUserDto, type UserService } from '../users';
import { organizationConsole, type OrganizationSsoView } from './admin-console';
import { organizationAdminRoutes } from './admin-routes';
import { createMembershipService, type MembershipService } from './membership';
import type { MemberJoinedHook, MembershipChangeHook } from './members';
import { membershipRoutes, organizationRoutes } from './routes';
import { createOrganizationService, type OrganizationService } from './service';

/** Where membership and role changes are told (the audit module's hook): typed here, as audit sits above organizations. */
interface MembershipAudit {
  onMembershipChanged: MembershipChangeHook;
}

export interface MembershipMade {
  membership: MembershipService;
  /** Company SSO's rule for a new member (it ends their sessions where SSO is required): bound by the company-sso module, listed later. */
  memberJoined: Late<MemberJoinedHook>;
}

/** Organization roles and invitations; listed before the sign-in pipeline, which joins an activated account to the organizations that invited it. */
export const membershipModule = defineModule({
  name: 'membership',
  create: (needs: { platform: Platform; sessions: SessionsMade; audit: MembershipAudit }, host): MembershipMade => {
    const memberJoined = host.late<MemberJoinedHook>('membership: a new member where SSO is required (company-sso)');
    const membership = createMembershipService({ ...withSessions(needs), onMembershipChanged: needs.audit.onMembershipChanged, memberJoined: (organizationId, email) => memberJoined.get()(organizationId, email) });
    return { membership, memberJoined };
  },
  routes: async (api, { membership }, { platform }) => {
    await api.register(membershipRoutes(platform.config, membership));
  },
});

export interface OrganizationsMade {
  organizations: OrganizationService;
  /** An organization's SSO in the operators' console: bound by the company-sso module, listed later (it needs organizations). */
  ssoView: Late<OrganizationSsoView>;
  /** Company SSO's rule for a new member, as the membership module's (bound by the company-sso module). */
  memberJoined: Late<MemberJoinedHook>;
}

/**
 * Organizations and their on-premise deployments. On-premise discovery answers a member's avatar
 * and whether they still need a passkey; just-in-time SSO members are recorded in the audit log
 * like the page's changes.
 */
export const organizationsModule = defineModule({
  name: 'organizations',
  create: (
    needs: { platform: Platform; users: UserService; audit: MembershipAudit; passkeys: { passkeys: { count(userId: string): Promise<number> } } },
    host,
  ): OrganizationsMade => {
    const { config, db, clock, log } = needs.platform;
    const memberJoined = host.late<MemberJoinedHook>('organizations: a new member where SSO is required (company-sso)');
    const organizations = createOrganizationService({
      db,
      clock,
      onMembershipChanged: needs.audit.onMembershipChanged,
      memberJoined: (organizationId, email) => memberJoined.get()(organizationId, email),
      log,
      accounts: {
        async accountOf(email) {
          const user = await needs.users.findByEmail(email);
          if (!user) return undefined;
          const avatar = toUserDto(user).avatar_url;
          return { userId: user.id, avatarUrl: avatar && new URL(avatar, originFor(config, 'platform')).toString() };
        },
        passkeyCount: (userId) => needs.passkeys.passkeys.count(userId),
      },
    });
    return { organizations, ssoView: host.late<OrganizationSsoView>('organizations: the operators’ SSO view (company-sso)'), memberJoined };
  },
  routes: async (api, { organizations, ssoView }, { platform: { config, db, limiter } }) => {
    await api.register(organizationRoutes(config, organizations, limiter));
    // Routes are registered once every module is made: the late view is bound by then.
    await api.register(organizationAdminRoutes(organizationConsole({ db, sso: ssoView.get() })));
  },
});

import type { Late, Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { AuthMade } from '../auth';
import type { MembershipMade, OrganizationsMade } from '../organizations';
import { withSessions, type SessionsMade } from '../sessions';
import { companySsoRoutes } from './routes';
import { createCompanySsoService, type CompanySsoService } from './service';

/**
 * Company SSO signs people in through the auth module's pipeline, which in turn asks it whether
 * an account must sign in through its organization's IdP: this module binds that late need, and
 * the operators' view of an organization's SSO (organizations module).
 */
export const companySsoModule = defineModule({
  name: 'companySso',
  create: (needs: {
    platform: Platform;
    sessions: SessionsMade;
    auth: AuthMade;
    membership: MembershipMade;
    organizations: OrganizationsMade;
    account: { emailChanged: Late<(user: { id: string; email: string }) => Promise<void>> };
  }): { companySso: CompanySsoService } => {
    const companySso = createCompanySsoService({ ...withSessions(needs), signIn: needs.auth.signIn, organizations: needs.organizations.organizations });
    needs.auth.companySsoMembership.bind({ of: (user) => companySso.membershipOf(user), accountWithMembership: (identifier) => companySso.accountWithMembership(identifier) });
    needs.organizations.ssoView.bind(companySso);
    // Whichever way a person joins (an invitation, an operator, just in time at the IdP), an organization that requires SSO ends their other sessions.
    const memberJoined = (organizationId: string, email: string) => companySso.memberJoined(organizationId, email);
    needs.membership.memberJoined.bind(memberJoined);
    needs.organizations.memberJoined.bind(memberJoined);
    // A sign-in that read the membership before the requirement (or the membership) came, and wrote its session after the sweep.
    needs.sessions.service.admitWith((session) => companySso.admitSession(session));
    // An email change onto an address the organization added before any account held it.
    needs.account.emailChanged.bind((user) => companySso.emailChanged(user));
    return { companySso };
  },
  routes: async (api, { companySso }, { platform }) => {
    await api.register(companySsoRoutes(platform.config, companySso));
  },
});

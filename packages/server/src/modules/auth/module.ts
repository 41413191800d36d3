import type { Late, Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { DashboardCounter } from '../admin-dashboard';
import type { MfaMade } from '../mfa';
import type { ModeratorService } from '../moderators';
import type { NotificationsMade } from '../notifications';
import type { MembershipService } from '../organizations';
import { withSessions, type SessionsMade } from '../sessions';
import type { SignInMembership } from './pipeline';
import { createRecoveryService, type RecoveryService } from './recovery';
import { authRoutes } from './routes';
import { createAuthService, type AuthService } from './service';
import { createSignIn, type SignIn } from './sign-in';
import { signInRoutes } from './sign-in-routes';
import type { UserRow } from '../users';

/** Whether an account is a member of an organization that requires company SSO (and which). */
export interface CompanySsoMembership {
  of(user: UserRow): Promise<SignInMembership | undefined>;
  /** The account an identifier typed at sign-in names, and its membership, in one statement. */
  accountWithMembership(identifier: string): Promise<{ user: UserRow; membership: SignInMembership | undefined } | undefined>;
}

export interface AuthMade {
  signIn: SignIn;
  auth: AuthService;
  recovery: RecoveryService;
  /**
   * A member of an organization that requires company SSO signs in only through its IdP. Company
   * SSO is listed later (it signs people in through this pipeline) and binds it.
   */
  companySsoMembership: Late<CompanySsoMembership>;
}

/** Sign-up, activation, recovery, and the one sign-in pipeline every way in goes through. */
export const authModule = defineModule({
  name: 'auth',
  create: (
    needs: {
      platform: Platform;
      sessions: SessionsMade;
      mfa: MfaMade;
      adminDashboard: { countEvent: DashboardCounter };
      notifications: Pick<NotificationsMade, 'securityAlerts'>;
      moderators: { moderators: ModeratorService };
      membership: { membership: MembershipService };
    },
    host,
  ): AuthMade => {
    const shared = withSessions(needs);
    const { secondFactor } = needs.mfa;
    const companySsoMembership = host.late<CompanySsoMembership>('auth: company SSO membership (company-sso)');
    const signIn = createSignIn({
      ...shared,
      secondFactor,
      membershipOf: (user) => companySsoMembership.get().of(user),
      accountWithMembership: (identifier) => companySsoMembership.get().accountWithMembership(identifier),
      countEvent: needs.adminDashboard.countEvent,
      securityAlerts: needs.notifications.securityAlerts,
    });
    // An account that signed up from an organization or moderator invitation joins (is accepted) once activated.
    const auth = createAuthService({
      ...shared,
      signIn,
      afterActivation: async (user) => {
        await needs.moderators.moderators.acceptOnActivation(user);
        await needs.membership.membership.joinOnActivation(user);
      },
    });
    // Hints for unknown usernames must be stable across nodes and restarts: keyed by the data key.
    const recovery = createRecoveryService({ ...shared, signIn, auth, hintSecret: shared.secrets.keyedHash('recovery hint key') });
    return { signIn, auth, recovery, companySsoMembership };
  },
  routes: async (api, { auth, recovery, signIn }, { platform }) => {
    await api.register(authRoutes(platform.config, auth, recovery));
    await api.register(signInRoutes(platform.config, signIn));
  },
});

import type { Late, Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { RequestOrigin } from '../../platform/request-origin';
import type { MfaMade } from '../mfa';
import { withSessions, type SessionsMade, type SignedIn } from '../sessions';
import { createDeletionService, type DeletionService } from './deletion';
import { installDeletionPurgeJob } from './purge';
import { accountRoutes } from './routes';
import { createAccountService, type AccountService, type EmailChangedHook } from './service';

/** The sign-in that restores an account scheduled for deletion (the auth module's pipeline; typed here, as auth sits above account). */
interface RestoreSignIn {
  restore(restoreToken: string, origin: RequestOrigin): Promise<SignedIn>;
}

export const accountModule = defineModule({
  name: 'account',
  create: (
    needs: { platform: Platform; sessions: SessionsMade; mfa: MfaMade; auth: { signIn: RestoreSignIn } },
    host,
  ): { account: AccountService; deletion: DeletionService; emailChanged: Late<EmailChangedHook> } => {
    const shared = withSessions(needs);
    const { secondFactor } = needs.mfa;
    const emailChanged = host.late<EmailChangedHook>('account: an email change onto an address an organization added (company-sso)');
    // Email change and deletion take the second factor when it is on (the email method's code comes from POST /sso/me/2fa/email/send).
    const account = createAccountService({
      ...shared,
      verifySecondFactor: async (user, proof) => (await secondFactor.requireFactor(user, proof, 'two_factor_email'), true),
      emailChanged: (user) => emailChanged.get()(user),
    });
    const deletion = createDeletionService({ ...shared, account, restoreSignIn: (token, origin) => needs.auth.signIn.restore(token, origin) });
    return { account, deletion, emailChanged };
  },
  jobs: (app, _made, { platform: { config, db, clock } }) => installDeletionPurgeJob(app, { config, db, clock }),
  routes: async (api, services, { platform: { config, db, clock }, sessions }) => {
    await api.register(accountRoutes(config, db, clock, sessions.service, services));
  },
});

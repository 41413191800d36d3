import type { Database } from './db/client';
import type { Clock } from './platform/clock';
import { defineModule, type Platform } from './platform/modules';
import type { DeletionService } from './modules/account';
import type { AuthMade, AuthService } from './modules/auth';
import type { BillingService } from './modules/billing';
import type { MfaMade, MfaService } from './modules/mfa';
import type { OAuthMade, OAuthService } from './modules/oauth';
import { operatorOf, type OperatorService } from './modules/operators';
import { roleOfUser, type OrganizationService, type OrganizationsMade } from './modules/organizations';
import type { PasskeyService } from './modules/passkeys';
import { sessionDeviceDto, type SessionService, type SessionsMade } from './modules/sessions';
import { createPeopleService, peopleAdminRoutes, type PeopleService } from './modules/users';
import type { WalletService } from './modules/wallet';

/**
 * People in the operators' console, bound to the modules that own what a person's page shows
 * and the actions taken on an account (the users module sits below them all, so it is told
 * here rather than importing them).
 */
export function createPeopleAdmin(deps: {
  db: Database;
  clock: Clock;
  sessions: SessionService;
  passkeys: PasskeyService;
  organizations: OrganizationService;
  oauth: OAuthService;
  wallet: WalletService;
  billing: BillingService;
  mfa: MfaService;
  auth: AuthService;
  deletion: DeletionService;
  operators: Pick<OperatorService, 'standingOf'>;
}): PeopleService {
  return createPeopleService({
    db: deps.db,
    clock: deps.clock,
    sessions: {
      list: async (userId) => (await deps.sessions.list(userId)).map(sessionDeviceDto),
      revokeAll: (userId) => deps.sessions.revokeAll(userId),
    },
    passkeys: async (userId) => (await deps.passkeys.list(userId)).map((passkey) => ({ name: passkey.name, created_at: passkey.created_at })),
    async organizations(user) {
      const organization = await deps.organizations.membershipOf(user.email);
      if (!organization) return [];
      return [{ id: organization.id, name: organization.name, role: (await roleOfUser(deps.db, user.id, organization.id)) ?? 'member' }];
    },
    connectedApps: async (userId) => (await deps.oauth.connectedApps(userId)).map((app) => ({ client_id: app.client_id, name: app.name, scopes: app.scopes })),
    balances: async (userId) => (await deps.wallet.balances(userId)).balances.map((balance) => ({ currency: balance.currency, amount: balance.minor })),
    orders: async (userId) =>
      (await deps.billing.listOrders(userId)).map((order) => ({
        id: order.id,
        number: order.number,
        plan: order.plan,
        total: order.total,
        currency: order.currency,
        status: order.status,
        created_at: order.created_at,
      })),
    resetSecondFactors: (user, origin) => deps.mfa.resetByOperator(user, origin),
    resendActivation: (user, origin) => deps.auth.resendActivationByOperator(user, origin),
    startDeletion: (user, origin) => deps.deletion.scheduleByOperator(user, origin),
    rolesOf: async (userId) => (await deps.operators.standingOf(userId))?.roles ?? [],
  });
}

/** People in the operators' console: each page and action through the module that owns it, so it is listed after them all. */
export const peopleAdminModule = defineModule({
  name: 'people',
  create: (needs: {
    platform: Platform;
    sessions: SessionsMade;
    mfa: MfaMade;
    auth: AuthMade;
    passkeys: { passkeys: PasskeyService };
    account: { deletion: DeletionService };
    organizations: OrganizationsMade;
    oauth: OAuthMade;
    wallet: { wallet: WalletService };
    billing: { billing: BillingService };
    operators: { operators: OperatorService };
  }): PeopleService =>
    createPeopleAdmin({
      db: needs.platform.db,
      clock: needs.platform.clock,
      sessions: needs.sessions.service,
      passkeys: needs.passkeys.passkeys,
      organizations: needs.organizations.organizations,
      oauth: needs.oauth.service,
      wallet: needs.wallet.wallet,
      billing: needs.billing.billing,
      mfa: needs.mfa.mfa,
      auth: needs.auth.auth,
      deletion: needs.account.deletion,
      operators: needs.operators.operators,
    }),
  routes: async (api, people, { platform }) => {
    await api.register(peopleAdminRoutes(platform.config, people, (request) => ({ roles: operatorOf(request).roles })));
  },
});

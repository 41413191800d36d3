import type { Database } from './db/client';
import type { Clock } from './platform/clock';
import type { DeletionService } from './modules/account';
import type { AuthService } from './modules/auth';
import type { BillingService } from './modules/billing';
import type { MfaService } from './modules/mfa';
import type { OAuthService } from './modules/oauth';
import type { OperatorService } from './modules/operators';
import { roleOfUser, type OrganizationService } from './modules/organizations';
import type { PasskeyService } from './modules/passkeys';
import type { SessionService } from './modules/sessions';
import { createPeopleService, type PeopleService } from './modules/users';
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
  const iso = (date: Date) => date.toISOString();
  return createPeopleService({
    db: deps.db,
    clock: deps.clock,
    sessions: {
      list: async (userId) =>
        (await deps.sessions.list(userId)).map((session) => ({
          id: session.id,
          browser: session.browser,
          device: session.device,
          ip: session.ip,
          location: session.location,
          created_at: iso(session.createdAt),
          last_active_at: iso(session.lastActiveAt),
        })),
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

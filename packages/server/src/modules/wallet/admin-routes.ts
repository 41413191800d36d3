import { adminWalletEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import type { WalletConsole } from './admin-console';
import type { PayoutService } from './payouts';

/** The wallet in the operators' console (roles, two-step, recent proof and the audit log are the platform's). */
export function walletAdminRoutes(admin: WalletConsole, payouts: PayoutService): FastifyPluginAsync {
  return async (app) => {
    route(app, adminWalletEndpoints.payoutQueue, async () => admin.payoutQueue());
    route(app, adminWalletEndpoints.approvePayout, async (request) => {
      const paid = await payouts.payNow(request.params.user_id.toLowerCase(), request.params.currency);
      return { payout_id: paid.payoutId, transaction_id: paid.entryId, amount_minor: String(paid.total), rewards: paid.count };
    });
    route(app, adminWalletEndpoints.holdPayout, async (request) => admin.hold(request.params.user_id.toLowerCase(), request.params.currency));
    route(app, adminWalletEndpoints.ledgerAccounts, async (request) => admin.accounts(request.query.owner));
    route(app, adminWalletEndpoints.ledgerEntries, async (request) => admin.entries(request.params.id.toLowerCase(), request.query.cursor));
  };
}

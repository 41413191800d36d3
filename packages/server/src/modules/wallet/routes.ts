import { walletEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import { caller } from '../sessions';
import type { WalletService } from './service';

/** The wallet's `/v3` routes: the signed-in person's own balances, transactions and transfers. */
export function walletRoutes(wallet: WalletService): FastifyPluginAsync {
  return async (app) => {
    const userId = (request: Parameters<typeof caller>[0]) => caller(request).user.id;
    route(app, walletEndpoints.balances, async (request) => wallet.balances(userId(request)));
    route(app, walletEndpoints.transactions, async (request) => wallet.transactions(userId(request), request.params.currency, request.query));
    route(app, walletEndpoints.transfer, async (request) => wallet.transfer(userId(request), request.params.currency, request.body));
  };
}

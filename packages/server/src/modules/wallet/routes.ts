import { walletEndpoints } from '@portal/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../platform/http/route';
import { caller } from '../sessions';
import type { ChainWithdrawalService } from './chain';
import type { DepositService } from './deposits';
import type { PartnerTransferService } from './partner';
import type { WalletService } from './service';
import type { WhcDepositService } from './whc-deposits';

/** A signed notification's exact bytes (read raw, the signature is over them) and its signature header. */
function signedBody(request: FastifyRequest, header: string): [raw: Buffer, signature: string | undefined] {
  const body = request.body as unknown;
  const signature = request.headers[header];
  return [Buffer.isBuffer(body) ? body : Buffer.alloc(0), typeof signature === 'string' ? signature : undefined];
}

/**
 * The wallet's `/v3` routes: the signed-in person's own balances, transactions, transfers, VND
 * deposit orders, WHC withdrawals to BEP20 addresses, WHC deposit addresses and the deposits found to them, transfers to a partner exchange wallet, and the bank's and the partner's signed notifications (read as raw bytes: the signature is
 * over them).
 */
export function walletRoutes(
  wallet: WalletService,
  deposits: DepositService,
  chain: ChainWithdrawalService,
  afterWithdrawal: () => void = () => {},
  whcDeposits?: WhcDepositService,
  partner?: PartnerTransferService,
): FastifyPluginAsync {
  return async (app) => {
    const userId = (request: Parameters<typeof caller>[0]) => caller(request).user.id;
    route(app, walletEndpoints.balances, async (request) => wallet.balances(userId(request)));
    route(app, walletEndpoints.transactions, async (request) => wallet.transactions(userId(request), request.params.currency, request.query));
    route(app, walletEndpoints.transfer, async (request) => wallet.transfer(userId(request), request.params.currency, request.body));
    route(app, walletEndpoints.createWithdrawal, async (request) => {
      const withdrawal = await chain.withdraw(userId(request), request.body);
      if (withdrawal.status === 'pending' && !withdrawal.tx_hash) afterWithdrawal();
      return withdrawal;
    });
    route(app, walletEndpoints.listWithdrawals, async (request) => chain.list(userId(request)));
    route(app, walletEndpoints.createDeposit, async (request) => deposits.create(userId(request), request.body.amount));
    route(app, walletEndpoints.listDeposits, async (request) => deposits.list(userId(request)));
    route(app, walletEndpoints.getDeposit, async (request) => deposits.get(userId(request), request.params.id));
    if (partner) {
      route(app, walletEndpoints.createPartnerTransfer, async (request) => partner.transfer(userId(request), request.params.currency, request.body));
      route(app, walletEndpoints.listPartnerTransfers, async (request) => partner.list(userId(request), request.params.currency));
    }
    if (whcDeposits) {
      route(app, walletEndpoints.whcDepositAddress, async (request) => whcDeposits.address(userId(request)));
      route(app, walletEndpoints.listWhcDeposits, async (request) => whcDeposits.list(userId(request)));
    }

    await app.register(async (raw: FastifyInstance) => {
      raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      route(raw, walletEndpoints.bankNotification, async (request) => deposits.notify(...signedBody(request, 'x-bank-signature')), { bodyLimit: 64 * 1024 });
      if (partner) {
        route(raw, walletEndpoints.partnerNotification, async (request) => partner.notify(...signedBody(request, 'x-partner-signature')), { bodyLimit: 16 * 1024 });
      }
    });
  };
}

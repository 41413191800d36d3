import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { MfaMade } from '../mfa';
import { withSessions, type SessionsMade } from '../sessions';
import { walletConsole } from './admin-console';
import { walletAdminRoutes } from './admin-routes';
import { createChainWithdrawalService } from './chain';
import { createWhcDepositFollower, installDepositFollower } from './chain-follower';
import { installChainJob } from './chain-job';
import { createDepositService } from './deposits';
import { createPartnerTransferService, installPartnerJob } from './partner';
import { installPayoutJob } from './payout-job';
import { payoutRoutes, type ClientTokenCheck } from './payout-routes';
import { createPayoutService, type PayoutHooks } from './payouts';
import { walletRoutes } from './routes';
import { createWalletService } from './service';
import { createWhcDepositService } from './whc-deposits';

/**
 * The wallet: balances, transfers, VND deposits, WHC withdrawals and deposits on chain, transfers
 * to the partner exchange, researcher rewards. `payoutHooks` are the payout job's test hooks.
 */
export function walletModule(options: { payoutHooks?: PayoutHooks } = {}) {
  return defineModule({
    name: 'wallet',
    create: (needs: { platform: Platform; sessions: SessionsMade; mfa: MfaMade; oauth: { clientTokens: ClientTokenCheck } }) => {
      const { db, clock, config, log } = needs.platform;
      const { secondFactor } = needs.mfa;
      const requireSecondFactor = (user: Parameters<typeof secondFactor.requireFactor>[0], proof: Parameters<typeof secondFactor.requireFactor>[1]) =>
        secondFactor.requireFactor(user, proof, 'two_factor_email');
      const wallet = createWalletService({ db, clock, config, requireSecondFactor });
      return {
        wallet,
        deposits: createDepositService({ db, clock, config, log }),
        // WHC to BEP20 addresses: a code every time (as transfers), the password for a first withdrawal to an address.
        chainWithdrawals: createChainWithdrawalService({ db, clock, config, log, requireSecondFactor, confirmPassword: (user, password) => secondFactor.confirmPassword(user, password) }),
        // A new withdrawal asks the chain job for a run at once. Set by the jobs step, which runs
        // before the routes; without the job on this node a kick does nothing, as installChainJob's.
        chainJob: { kick: () => undefined } as { kick(): void },
        // Transfers to a partner exchange wallet: the same rules as transfers here, pending until the partner's signed callback.
        partnerTransfers: createPartnerTransferService({ db, clock, config, log, wallet }),
        // WHC deposits: addresses from the configured xpub, the chain's token transfers to them credited after confirmations.
        whcDeposits: createWhcDepositService({ db, clock, config, log }),
        whcFollower: createWhcDepositFollower({ db, clock, config, log }),
        // Researcher rewards (posted by the bug-bounty platform's client) paid on the 10th.
        payouts: createPayoutService({ ...withSessions(needs), hooks: options.payoutHooks }),
      };
    },
    jobs: (app, made, { platform: { config } }) => {
      made.chainJob = installChainJob(app, made.chainWithdrawals, config.WHC_CHAIN_POLL_SECONDS);
      installPartnerJob(app, made.partnerTransfers, config.PARTNER_EXCHANGE_RETRY_SECONDS);
      installDepositFollower(app, made.whcFollower, config.WHC_CHAIN_POLL_SECONDS);
      const payoutTestDate = config.PAYOUT_TEST_DATE;
      installPayoutJob(app, made.payouts, config.PAYOUT_JOB_INTERVAL_SECONDS, payoutTestDate ? () => new Date(`${payoutTestDate}T12:00:00Z`) : undefined);
    },
    routes: async (api, made, needs) => {
      const { config, db, clock, limiter } = needs.platform;
      await api.register(walletRoutes(made.wallet, made.deposits, made.chainWithdrawals, () => made.chainJob.kick(), made.whcDeposits, made.partnerTransfers));
      await api.register(payoutRoutes(config, made.payouts, needs.oauth.clientTokens, limiter));
      await api.register(walletAdminRoutes(walletConsole({ db, clock }), made.payouts));
    },
  });
}

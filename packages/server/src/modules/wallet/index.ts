/** The wallet module: balances on a double-entry ledger, transfers between accounts, VND deposits by bank transfer, WHC withdrawals to BEP20 addresses, WHC deposits found on chain, researcher rewards paid on the 10th, transfers to a partner exchange wallet. */
export { createWalletService, toMinorUnits, type WalletService } from './service';
export { createDepositService, signBankNotification, type DepositService } from './deposits';
export { createChainWithdrawalService, toTokenUnits, CHAIN_OUTBOUND_ACCOUNT, type ChainWithdrawalService } from './chain';
export { installChainJob } from './chain-job';
export { createWhcDepositService, depositAddressAt, toLedgerUnits, type WhcDepositService } from './whc-deposits';
export { createWhcDepositFollower, installDepositFollower, CHAIN_INBOUND_ACCOUNT, type WhcDepositFollower } from './chain-follower';
export { walletRoutes } from './routes';
export { walletAdmin, WalletAdminError } from './admin';
export { createPayoutService, PAYOUT_DAY, PAYOUTS_ACCOUNT, type PayoutHooks, type PayoutService } from './payouts';
export { installPayoutJob } from './payout-job';
export { payoutRoutes, REWARDS_SERVICE_SCOPE } from './payout-routes';
export { createPartnerTransferService, installPartnerJob, PARTNER_CLEARING_ACCOUNT, type PartnerTransferService } from './partner';
export { postBillingEntry, BILLING_CARDS_ACCOUNT, BILLING_REVENUE_ACCOUNT, type BillingEntry } from './billing-entries';
export { walletConsole, type WalletConsole } from './admin-console';
export { walletAdminRoutes } from './admin-routes';
export { walletModule } from './module';

/** The wallet module: balances on a double-entry ledger, transfers between accounts, VND deposits by bank transfer. */
export { createWalletService, toMinorUnits, type WalletService } from './service';
export { createDepositService, signBankNotification, type DepositService } from './deposits';
export { walletRoutes } from './routes';
export { walletAdmin, WalletAdminError } from './admin';

/** The wallet module: balances on a double-entry ledger, transfers between accounts. */
export { createWalletService, toMinorUnits, type WalletService } from './service';
export { walletRoutes } from './routes';
export { walletAdmin, WalletAdminError } from './admin';

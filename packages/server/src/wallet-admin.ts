/**
 * Operator commands of the wallet, against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "Bank transfer 2026-11-20"
 *       money in (or out, with a leading -) from the system's adjustments account, as one ledger entry
 *   npm run wallet -- resend <withdrawal id> [--gas-price-gwei 5]
 *       a WHC withdrawal stuck unmined (too low a gas price): signed again with the same nonce and a
 *       higher gas price (at least 12.5 % more), stored, then broadcast; whichever signing the chain
 *       mines is the one the follower settles (one nonce: never two transfers)
 *   npm run wallet -- balance <email|user id|system>
 *       the person's (or the system's) ledger accounts: currency, balance in minor units, account id
 *   npm run wallet -- payouts
 *       the payout queue: per researcher and currency, the approved rewards not paid yet
 *   npm run wallet -- payouts hold <user id> <USD|VND|WHC> [--reason "..."]
 *       holds them out of the monthly run until an operator approves the payout (on the console)
 *
 * With PORTAL_URL and OPERATOR_API_KEY (cli/admin-api.ts) balance, payouts and payouts hold go
 * through the running server's admin API (key scope admin:wallet); adjust and resend have no
 * endpoint there and refuse.
 */
import { runTool } from './cli/run-tool';
import { walletTool } from './cli/wallet-tool';

runTool(walletTool);

/**
 * Operator commands of billing, against the configured database (DATABASE_URL, or PGlite in
 * DATA_DIR, which a running server holds: then the command refuses), or, with PORTAL_URL and
 * OPERATOR_API_KEY set, through that server's admin API (each change then takes `--reason "..."`):
 *
 *   npm run billing -- promo add --code SPRING25 (--percent 25 | --amount 5 --currency USD)
 *                                [--plan pwdmanager.premium ...] [--expires 2027-03-31] [--limit 100]
 *   npm run billing -- promo list
 *   npm run billing -- promo disable <code>       ends the code now (paid orders keep their discount)
 *   npm run billing -- license issue <plan> [count] [--expires 2027-12-31]
 *                                                 AppSumo codes, one a line (redeemed at /confirmation/app/<code>)
 */
import { billingTool } from './cli/billing-tool';
import { runTool } from './cli/run-tool';

runTool(billingTool);

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
import { adminApiFrom } from './cli/admin-api';
import { billingViaApi, promoAddOptions } from './cli/billing-via-api';
import { commandOf, parseOptions, runTool, withDatabase } from './cli/run-tool';
import { billingAdmin, licenseSecretOf } from './modules/billing';
import { systemClock } from './platform/clock';
import { createDataProtection, loadDataKey } from './platform/data-protection';

const USAGE = 'usage: npm run billing -- promo add|list|disable ...  |  license issue <plan> [count] [--expires YYYY-MM-DD] (see packages/server/src/billing-admin.ts)';

async function main(): Promise<number> {
  const { command, rest } = commandOf(process.argv.slice(2), ['promo add', 'promo list', 'promo disable', 'license issue'], 2);
  // Beside a running server: through its admin API, never the database it holds.
  const api = adminApiFrom();
  if (api) {
    const [group, name] = command.split(' ');
    return billingViaApi(api, group!, name!, rest);
  }
  return withDatabase(async ({ config, db }) => {
    const admin = billingAdmin({ db, clock: systemClock, licenseSecret: licenseSecretOf(config, createDataProtection(loadDataKey(config))) });
    if (command === 'promo add') {
      const { values } = parseOptions(rest, promoAddOptions);
      const added = await admin.addPromo(values);
      console.log(`added ${added.code}: ${added.discount} off${added.plans.length ? ` ${added.plans.join(', ')}` : ' any plan'}`);
      return 0;
    }
    if (command === 'promo list') {
      for (const promo of await admin.listPromos()) {
        console.log(
          [promo.code, promo.discount, promo.plans.join(',') || 'any plan', promo.expiresAt ? `until ${promo.expiresAt.toISOString()}` : 'no expiry', `${promo.redemptions}/${promo.maxRedemptions ?? '∞'}`, promo.state].join('\t'),
        );
      }
      return 0;
    }
    if (command === 'promo disable') {
      await admin.disablePromo(rest[0]);
      console.log(`disabled ${rest[0]!.trim().toUpperCase()}`);
      return 0;
    }
    const { values, positionals } = parseOptions(rest, { expires: { type: 'string' } }, { max: 2 });
    const issued = admin.issueLicenses({ plan: positionals[0], count: positionals[1], expires: values.expires });
    console.error(`${issued.codes.length} code(s) of ${issued.plan}, valid until ${issued.expiresAt.toISOString()}; each is redeemed once at /confirmation/app/<code>`);
    for (const code of issued.codes) console.log(code);
    return 0;
  });
}

runTool(USAGE, main);

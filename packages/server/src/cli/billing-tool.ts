/**
 * `npm run billing` (usage in ../billing-admin.ts): on the configured database, or through a
 * running server's admin API (billing-via-api.ts).
 */
import { adminApiFrom } from './admin-api';
import { billingViaApi, promoAddOptions } from './billing-via-api';
import { commandOf, parseOptions, withDatabase, type OperatorTool, type ToolIo } from './run-tool';
import { billingAdmin, licenseSecretOf } from '../modules/billing';
import { systemClock } from '../platform/clock';
import { createDataProtection, loadDataKey } from '../platform/data-protection';

const USAGE = 'usage: npm run billing -- promo add|list|disable ...  |  license issue <plan> [count] [--expires YYYY-MM-DD] (see packages/server/src/billing-admin.ts)';

async function main(argv: string[], io: ToolIo): Promise<number> {
  const { command, rest } = commandOf(argv, ['promo add', 'promo list', 'promo disable', 'license issue'], 2);
  // Beside a running server: through its admin API, never the database it holds.
  const api = adminApiFrom(io.env);
  if (api) {
    const [group, name] = command.split(' ');
    return billingViaApi(io, api, group!, name!, rest);
  }
  return withDatabase(io.env, async ({ config, db }) => {
    const admin = billingAdmin({ db, clock: systemClock, licenseSecret: licenseSecretOf(config, createDataProtection(loadDataKey(config))) });
    if (command === 'promo add') {
      const { values } = parseOptions(rest, promoAddOptions);
      const added = await admin.addPromo(values);
      io.out(`added ${added.code}: ${added.discount} off${added.plans.length ? ` ${added.plans.join(', ')}` : ' any plan'}`);
      return 0;
    }
    if (command === 'promo list') {
      for (const promo of await admin.listPromos()) {
        io.out(
          [promo.code, promo.discount, promo.plans.join(',') || 'any plan', promo.expiresAt ? `until ${promo.expiresAt.toISOString()}` : 'no expiry', `${promo.redemptions}/${promo.maxRedemptions ?? '∞'}`, promo.state].join('\t'),
        );
      }
      return 0;
    }
    if (command === 'promo disable') {
      await admin.disablePromo(rest[0]);
      io.out(`disabled ${rest[0]!.trim().toUpperCase()}`);
      return 0;
    }
    const { values, positionals } = parseOptions(rest, { expires: { type: 'string' } }, { max: 2 });
    const issued = admin.issueLicenses({ plan: positionals[0], count: positionals[1], expires: values.expires });
    io.err(`${issued.codes.length} code(s) of ${issued.plan}, valid until ${issued.expiresAt.toISOString()}; each is redeemed once at /confirmation/app/<code>`);
    for (const code of issued.codes) io.out(code);
    return 0;
  });
}

export const billingTool: OperatorTool = { usage: USAGE, main };

/**
 * `npm run billing` through a running server's admin API (PORTAL_URL + OPERATOR_API_KEY, see
 * admin-api.ts): the same commands and output as on the database, each change recorded in the
 * operator audit log under `--reason`.
 */
import { parseArgs } from 'node:util';
import { adminBillingEndpoints } from '@portal/contracts';
import { callAdmin, type AdminApi } from './admin-api';
import { UsageError, type ToolIo } from './run-tool';

const defaultReason = (command: string) => `command line: npm run billing -- ${command}`;

/** The options of `promo add`, on the database (billing-admin.ts) as here (which adds `--reason`). */
export const promoAddOptions = {
  code: { type: 'string' },
  percent: { type: 'string' },
  amount: { type: 'string' },
  currency: { type: 'string' },
  plan: { type: 'string', multiple: true },
  expires: { type: 'string' },
  limit: { type: 'string' },
} as const;

/** A whole number the API takes as one, or undefined when not given; anything else is the caller's to fix. */
function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,7}$/.test(value)) throw new UsageError(`${name} must be a whole number`);
  return Number(value);
}

export async function billingViaApi(io: ToolIo, api: AdminApi, group: string, command: string, rest: string[]): Promise<number> {
  if (group === 'promo' && command === 'add') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...promoAddOptions, reason: { type: 'string' } },
    });
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const added = await callAdmin(api, adminBillingEndpoints.createPromoCode, {
      body: {
        code: values.code ?? '',
        percent: values.percent,
        amount: values.amount,
        currency: values.currency as 'USD' | undefined,
        plans: values.plan,
        expires: values.expires,
        limit: wholeNumber(values.limit, '--limit'),
        reason: values.reason ?? defaultReason('promo add'),
      },
    });
    io.out(`added ${added.code}: ${added.discount} off${added.plans.length ? ` ${added.plans.join(', ')}` : ' any plan'}`);
    return 0;
  }
  if (group === 'promo' && command === 'list') {
    if (rest.length) throw new UsageError('promo list takes no arguments');
    const { promo_codes: promos } = await callAdmin(api, adminBillingEndpoints.listPromoCodes);
    for (const promo of promos) {
      io.out([promo.code, promo.discount, promo.plans.join(',') || 'any plan', promo.expires_at ? `until ${promo.expires_at}` : 'no expiry', `${promo.redemptions}/${promo.max_redemptions ?? '∞'}`, promo.state].join('\t'));
    }
    return 0;
  }
  if (group === 'promo' && command === 'disable') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { reason: { type: 'string' } } });
    if (positionals.length !== 1) throw new UsageError('promo disable takes <code>');
    const code = positionals[0]!.trim().toUpperCase();
    await callAdmin(api, adminBillingEndpoints.disablePromoCode, { params: { code }, body: { reason: values.reason ?? defaultReason('promo disable') } });
    io.out(`disabled ${code}`);
    return 0;
  }
  if (group === 'license' && command === 'issue') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { expires: { type: 'string' }, reason: { type: 'string' } } });
    if (positionals.length < 1 || positionals.length > 2) throw new UsageError('license issue takes <plan> [count]');
    const issued = await callAdmin(api, adminBillingEndpoints.issueLicenses, {
      body: { plan: positionals[0]!, count: wholeNumber(positionals[1], 'count'), expires: values.expires, reason: values.reason ?? defaultReason('license issue') },
    });
    io.err(`${issued.codes.length} code(s) of ${issued.plan}, valid until ${issued.expires_at}; each is redeemed once at /confirmation/app/<code>`);
    for (const code of issued.codes) io.out(code);
    return 0;
  }
  throw new UsageError(`unknown command: ${group} ${command}`);
}

import type { WalletCurrency } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { createUserService } from '../users';
import { isWalletCurrency } from './currency';
import { createWalletService, toMinorUnits } from './service';

/** A refusal of an operator command, said in one line. */
export class WalletAdminError extends Error {}

/**
 * The operator's side of the wallet (`npm run wallet -- adjust ...`): money into or out of a
 * person's balance from the system's adjustments account, for corrections and manual
 * deposits until bank and chain deposits exist. Every adjustment is an entry with its note.
 */
export function walletAdmin(deps: { db: Database; clock: Clock }) {
  const users = createUserService(deps.db);
  const wallet = createWalletService({
    ...deps,
    // Limits and second steps are for people's transfers; an adjustment is neither.
    config: { WALLET_LIMIT_PER_TRANSFER: { USD: 0, VND: 0, WHC: 0 }, WALLET_LIMIT_PER_DAY: { USD: 0, VND: 0, WHC: 0 } },
    requireSecondFactor: async () => {
      throw new WalletAdminError('adjustments take no second step');
    },
  });
  return {
    async adjust(input: { identifier?: string; currency?: string; amount?: string; note?: string }) {
      const currency = input.currency?.toUpperCase();
      if (!isWalletCurrency(currency)) throw new WalletAdminError('currency must be USD, VND or WHC');
      const negative = input.amount?.trim().startsWith('-') ?? false;
      const minor = toMinorUnits((input.amount ?? '').trim().replace(/^-/, ''), currency);
      if (minor === null) throw new WalletAdminError(`amount must be above zero with at most the decimals of ${currency} (a leading - takes money out)`);
      const note = input.note?.trim();
      if (!note) throw new WalletAdminError('--note is required: it is what the person sees in their transactions');
      const user = input.identifier ? await users.findByIdentifier(input.identifier) : undefined;
      if (!user) throw new WalletAdminError(`no account has the email or username ${input.identifier ?? ''}`);
      try {
        await wallet.adjust(user.id, currency, negative ? -minor : minor, note);
      } catch (error) {
        if (error instanceof AppError && error.code === 'wallet.insufficient_balance') throw new WalletAdminError('the balance is too low to take that out');
        throw error;
      }
      const balance = (await wallet.balances(user.id)).balances.find((item) => item.currency === currency)!.minor;
      return { email: user.email, currency: currency as WalletCurrency, balance };
    },
  };
}

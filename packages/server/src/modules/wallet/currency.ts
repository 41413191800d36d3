import { currencies, type WalletCurrency } from '@portal/contracts';

export const isWalletCurrency = (value: unknown): value is WalletCurrency => currencies.includes(value as WalletCurrency);

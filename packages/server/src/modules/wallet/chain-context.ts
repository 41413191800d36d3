import { createPublicClient, getAddress, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';

export type ChainConfig = Pick<
  Config,
  | 'WHC_CHAIN_RPC_URL'
  | 'WHC_TOKEN_ADDRESS'
  | 'WHC_SIGNER_KEY'
  | 'WHC_TOKEN_DECIMALS'
  | 'WHC_CONFIRMATIONS'
  | 'WHC_TRANSFER_GAS'
  | 'WALLET_LIMIT_PER_TRANSFER'
  | 'WALLET_LIMIT_PER_DAY'
>;

/** What the chain withdrawals write to the log: ids, hashes and amounts, never the key. */
export interface ChainLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What every part of the chain withdrawals works with. */
export interface ChainContext {
  db: Database;
  clock: Clock;
  config: ChainConfig;
  log: ChainLogger;
}

/** The signer's account, the chain's RPC client and the token: the key stays in this object, never logged, stored or answered. */
export type ConnectedChain = NonNullable<ReturnType<typeof connectChain>>;

/** The chain when it is configured (RPC URL, token and signer key), else null: withdrawals are then unavailable. */
export function connectChain(config: ChainConfig) {
  if (!config.WHC_CHAIN_RPC_URL || !config.WHC_TOKEN_ADDRESS || !config.WHC_SIGNER_KEY) return null;
  const account = privateKeyToAccount(config.WHC_SIGNER_KEY as Hex);
  const client = createPublicClient({ transport: http(config.WHC_CHAIN_RPC_URL, { timeout: 15_000, retryCount: 1 }) });
  return { account, client, token: getAddress(config.WHC_TOKEN_ADDRESS) };
}

/** An error's short text for the row's last_error (viem's shortMessage: no request bodies). */
export const shortError = (error: unknown) => String((error as { shortMessage?: string }).shortMessage ?? (error as Error).message ?? error).slice(0, 300);

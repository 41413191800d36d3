import { desc, eq, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { createPublicClient, getAddress, http, type Address, type Hex } from 'viem';
import { HDKey, publicKeyToAddress } from 'viem/accounts';
import type { WhcDeposit, WhcDepositAddress, WhcDepositStatus } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { walletChainCursors, walletWhcDepositAddresses, walletWhcDeposits } from './tables';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { rows } from './ledger';

/** The ledger keeps WHC with 8 decimals. */
const LEDGER_DECIMALS = 8;
/** The follower's row in wallet_chain_cursors. */
export const DEPOSIT_CURSOR = 'whc_deposits';

export type WhcDepositConfig = Pick<
  Config,
  'WHC_CHAIN_RPC_URL' | 'WHC_TOKEN_ADDRESS' | 'WHC_DEPOSIT_XPUB' | 'WHC_TOKEN_DECIMALS' | 'WHC_CONFIRMATIONS' | 'WHC_DEPOSIT_START_BLOCK' | 'WHC_DEPOSIT_SCAN_BLOCKS'
>;

/** What the deposits write to the log: addresses, hashes, blocks and amounts (all public on chain). */
export interface WhcDepositLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

// secp256k1's field: an extended public key holds compressed points (x and y's parity); an
// address is the hash of both coordinates, so y is recovered (y² = x³ + 7, p ≡ 3 mod 4).
const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
function powMod(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
  return result;
}
function uncompress(compressed: Uint8Array): Hex {
  const x = BigInt(`0x${Buffer.from(compressed.subarray(1)).toString('hex')}`);
  let y = powMod((x ** 3n + 7n) % P, (P + 1n) / 4n, P);
  if ((y & 1n) !== BigInt(compressed[0]! & 1)) y = P - y;
  return `0x04${x.toString(16).padStart(64, '0')}${y.toString(16).padStart(64, '0')}`;
}

/**
 * The address of child `index` of an extended public key (BIP-32, non-hardened): with the xpub
 * of m/44'/60'/0'/0, child i is the address wallets derive from the seed at m/44'/60'/0'/0/i
 * (viem's `mnemonicToAccount(seed, { addressIndex: i })`), so the operator holding the seed can
 * spend from it while this server holds no private key.
 */
export function depositAddressAt(xpub: string, index: number): Address {
  const child = HDKey.fromExtendedKey(xpub).deriveChild(index);
  if (!child.publicKey) throw new Error('the extended key derived no public key');
  return publicKeyToAddress(uncompress(child.publicKey));
}

/**
 * The token's units to the ledger's 10^-8 WHC: exact when the token has 8 decimals or fewer;
 * with more, what is below 10^-8 WHC (`dust`) cannot be credited and stays on the address.
 */
export function toLedgerUnits(units: bigint, decimals: number): { minor: bigint; dust: bigint } {
  if (decimals <= LEDGER_DECIMALS) return { minor: units * 10n ** BigInt(LEDGER_DECIMALS - decimals), dust: 0n };
  const step = 10n ** BigInt(decimals - LEDGER_DECIMALS);
  return { minor: units / step, dust: units % step };
}

/** The chain client of the deposits, when they are configured (the RPC URL, the token, the xpub). */
export function depositChain(config: WhcDepositConfig) {
  if (!config.WHC_CHAIN_RPC_URL || !config.WHC_TOKEN_ADDRESS || !config.WHC_DEPOSIT_XPUB) return null;
  // Read once at start: a malformed key is a configuration error, not a failure at the first request.
  HDKey.fromExtendedKey(config.WHC_DEPOSIT_XPUB);
  return {
    client: createPublicClient({ transport: http(config.WHC_CHAIN_RPC_URL, { timeout: 15_000, retryCount: 1 }) }),
    token: getAddress(config.WHC_TOKEN_ADDRESS),
    xpub: config.WHC_DEPOSIT_XPUB,
  };
}
export type DepositChain = NonNullable<ReturnType<typeof depositChain>>;

/**
 * The follower's cursor, made once: at WHC_DEPOSIT_START_BLOCK, else at the chain's head now
 * (no deposit address existed before, so nothing earlier can be anyone's deposit).
 */
export async function ensureCursor(db: Database, chain: DepositChain, config: WhcDepositConfig): Promise<void> {
  const [cursor] = await db.select({ name: walletChainCursors.name }).from(walletChainCursors).where(eq(walletChainCursors.name, DEPOSIT_CURSOR));
  if (cursor) return;
  const start = config.WHC_DEPOSIT_START_BLOCK ?? Number(await chain.client.getBlockNumber({ cacheTime: 0 }));
  await db.insert(walletChainCursors).values({ name: DEPOSIT_CURSOR, nextBlock: start }).onConflictDoNothing();
}

/**
 * WHC deposit addresses: a person's address is the child of WHC_DEPOSIT_XPUB at an
 * index taken from a sequence (unique, never handed out twice, allocated atomically: parallel
 * first requests of one person keep the first row, `ON CONFLICT (user_id) DO NOTHING`). The
 * follower (chain-follower.ts) credits the token transfers to these addresses.
 */
export function createWhcDepositService(deps: { db: Database; clock: Clock; config: WhcDepositConfig; log: WhcDepositLogger }) {
  const { db, config, log } = deps;
  const chain = depositChain(config);
  const confirmations = config.WHC_CONFIRMATIONS;

  async function addressOf(userId: string): Promise<string | null> {
    const [row] = await db.select({ address: walletWhcDepositAddresses.address }).from(walletWhcDepositAddresses).where(eq(walletWhcDepositAddresses.userId, userId));
    return row?.address ?? null;
  }

  return {
    enabled: chain !== null,

    /** The person's address, made on their first request. */
    async address(userId: string): Promise<WhcDepositAddress> {
      if (!chain) throw new AppError('wallet.whc_deposits_unavailable');
      let address = await addressOf(userId);
      if (!address) {
        // The cursor first: a transfer to the address can never land before where the follower starts.
        await ensureCursor(db, chain, config).catch((error: unknown) => {
          log.warn({ error: String((error as { shortMessage?: string }).shortMessage ?? error) }, 'WHC deposit follower: the chain did not answer; its cursor is made at its first run');
        });
        const [next] = await rows<{ index: number }>(db, sql`select nextval('wallet_whc_deposit_address_index')::int as index`);
        const index = next!.index;
        const [made] = await db
          .insert(walletWhcDepositAddresses)
          .values({ userId, addressIndex: index, address: depositAddressAt(chain.xpub, index), createdAt: deps.clock.now() })
          .onConflictDoNothing({ target: walletWhcDepositAddresses.userId })
          .returning({ address: walletWhcDepositAddresses.address });
        if (made) log.info({ user: userId, index }, 'WHC deposit address made');
        address = made?.address ?? (await addressOf(userId))!;
      }
      const qr = await QRCode.toDataURL(address, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
      return { address, qr_image: qr, network: 'BEP20', confirmations };
    },

    async list(userId: string): Promise<{ enabled: boolean; network: 'BEP20'; confirmations: number; items: WhcDeposit[] }> {
      const [cursor] = await db.select({ head: walletChainCursors.headBlock }).from(walletChainCursors).where(eq(walletChainCursors.name, DEPOSIT_CURSOR));
      const head = cursor?.head ?? 0;
      const items = await db.select().from(walletWhcDeposits).where(eq(walletWhcDeposits.userId, userId)).orderBy(desc(walletWhcDeposits.createdAt), desc(walletWhcDeposits.logIndex)).limit(20);
      return {
        enabled: chain !== null,
        network: 'BEP20',
        confirmations,
        items: items.map((row) => ({
          id: row.id,
          tx_hash: row.txHash,
          log_index: row.logIndex,
          amount: String(row.amountMinor),
          status: row.status as WhcDepositStatus,
          confirmations: row.status === 'pending' ? Math.max(0, Math.min(confirmations, head - row.blockNumber + 1)) : row.status === 'completed' ? confirmations : 0,
          created_at: row.createdAt.toISOString(),
          credited_at: row.creditedAt?.toISOString() ?? null,
        })),
      };
    },
  };
}

export type WhcDepositService = ReturnType<typeof createWhcDepositService>;

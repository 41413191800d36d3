import { z } from 'zod';
import { minorUnitsSchema } from './schemas';

/**
 * WHC deposits: each person's BEP20 deposit address, and the token transfers the
 * chain follower found to it: pending (seen, waiting for its confirmations), completed (credited
 * once) or ignored (less than the ledger's 10^-8 WHC).
 */
export const whcDepositStatuses = ['pending', 'completed', 'ignored'] as const;
export const whcDepositStatusSchema = z.enum(whcDepositStatuses);
export type WhcDepositStatus = z.infer<typeof whcDepositStatusSchema>;

/** The person's deposit address (made on the first request), its QR code (a PNG data: URL), the network and the confirmations waited for. */
export const whcDepositAddressSchema = z.object({
  address: z.string(),
  qr_image: z.string(),
  network: z.literal('BEP20'),
  confirmations: z.number().int(),
});
export type WhcDepositAddress = z.infer<typeof whcDepositAddressSchema>;

/** One incoming token transfer to the person's address. */
export const whcDepositSchema = z.object({
  id: z.string(),
  tx_hash: z.string(),
  log_index: z.number().int(),
  /** What the ledger credits (or credited), in 10^-8 WHC. */
  amount: minorUnitsSchema,
  status: whcDepositStatusSchema,
  /** Blocks on top of its block (itself included) at the follower's last scan, at most `confirmations`. */
  confirmations: z.number().int(),
  created_at: z.string(),
  credited_at: z.string().nullable(),
});
export type WhcDeposit = z.infer<typeof whcDepositSchema>;

/** The 20 newest; `enabled` is false when this server follows no chain for deposits. */
export const whcDepositListSchema = z.object({
  enabled: z.boolean(),
  network: z.literal('BEP20'),
  confirmations: z.number().int(),
  items: z.array(whcDepositSchema),
});

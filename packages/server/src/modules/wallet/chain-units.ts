/** The system account withdrawn WHC waits in while its transfer is on its way. */
export const CHAIN_OUTBOUND_ACCOUNT = 'whc_chain_outbound';
/** The ledger keeps WHC with 8 decimals. */
export const LEDGER_DECIMALS = 8;

/** Ledger minor units (8 decimals) to the token's units; null when the token cannot hold the amount exactly. */
export function toTokenUnits(minor: number, decimals: number): bigint | null {
  if (decimals >= LEDGER_DECIMALS) return BigInt(minor) * 10n ** BigInt(decimals - LEDGER_DECIMALS);
  const step = 10n ** BigInt(LEDGER_DECIMALS - decimals);
  return BigInt(minor) % step === 0n ? BigInt(minor) / step : null;
}

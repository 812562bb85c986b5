/**
 * The priority fee of a Solana transaction (pure): a compute unit price from what recent slots paid to
 * write the same accounts, raised for each earlier attempt of the same action that expired unlanded,
 * within the chain's configured floor and ceiling. A Solana transaction is not replaced while it can
 * still land (a second one could land too); its fee is raised when it is rebuilt after it expired.
 */

/** Base signature fee, lamports. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;
/** Where escalation starts when recent fees and the floor are both zero, micro-lamports per unit. */
export const ESCALATION_START_MICRO_LAMPORTS = 10_000n;

export interface PriceBounds {
  computeUnitPriceFloorMicroLamports: bigint;
  computeUnitPriceCeilingMicroLamports: bigint;
}

/** The 75th percentile (nearest rank) of recent prices: above most recent payers, without chasing the highest. */
export function recentPrice(recent: readonly bigint[]): bigint {
  if (recent.length === 0) return 0n;
  const sorted = [...recent].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.ceil((sorted.length * 3) / 4) - 1] as bigint;
}

/** Price for a transaction after `expiredAttempts` earlier attempts of its action expired unlanded. */
export function computeUnitPrice(
  recent: readonly bigint[],
  expiredAttempts: number,
  bounds: PriceBounds,
): bigint {
  const floor = bounds.computeUnitPriceFloorMicroLamports;
  const ceiling = bounds.computeUnitPriceCeilingMicroLamports;
  let price = recentPrice(recent) > floor ? recentPrice(recent) : floor;
  if (expiredAttempts > 0) {
    if (price < ESCALATION_START_MICRO_LAMPORTS) price = ESCALATION_START_MICRO_LAMPORTS;
    price *= 2n ** BigInt(Math.min(expiredAttempts, 32));
  }
  if (price > ceiling) return ceiling;
  return price < floor ? floor : price;
}

/**
 * Bounds for a transaction an allowance lets pay above the ceiling (an urgent source redeem built again
 * after its attempt expired): the ceiling raised to the highest price at which its whole fee, at this
 * unit limit, stays within `maxFee`.
 */
export function allowanceBounds<T extends PriceBounds>(
  bounds: T,
  signatures: number,
  unitLimit: bigint,
  allowance: { maxFee: bigint } | undefined,
): T {
  if (allowance === undefined || unitLimit <= 0n) return bounds;
  const forUnits = allowance.maxFee - BigInt(signatures) * LAMPORTS_PER_SIGNATURE;
  // Rounded down: price × limit / 10^6, rounded up as the fee is, is then at most `forUnits`.
  const allowed = forUnits > 0n ? (forUnits * 1_000_000n) / unitLimit : 0n;
  return allowed > bounds.computeUnitPriceCeilingMicroLamports
    ? { ...bounds, computeUnitPriceCeilingMicroLamports: allowed }
    : bounds;
}

/** The fee a transaction pays when it lands, lamports: signatures, plus price × limit rounded up. */
export function transactionFeeLamports(signatures: number, price: bigint, unitLimit: bigint): bigint {
  return BigInt(signatures) * LAMPORTS_PER_SIGNATURE + (price * unitLimit + 999_999n) / 1_000_000n;
}

/** Units to request: what the simulation used plus a fifth and a fixed margin, within the cluster's cap. */
export function computeUnitLimit(simulatedUnits: bigint): bigint {
  const limit = (simulatedUnits * 6n) / 5n + 2_000n;
  return limit > 1_400_000n ? 1_400_000n : limit;
}

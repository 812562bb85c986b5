/**
 * What a fill, a redeem and a refund cost on a Sui chain at the reference gas price, in MIST: computation
 * units times the price, plus the storage of the objects written less the rebate of those rewritten. The
 * amounts are the project's assumptions for the AtomicSwap calls, generous against what dry runs show
 * (docs/protocol.md, Sui); pricing needs an order of magnitude, the executor signs from a dry run.
 */
import type { NetworkFeeEstimate } from "../chain.js";

/** Computation units of one transaction: Sui charges at least 1000 units' worth. */
const UNITS_PER_TRANSACTION = 1_000n;
const UNITS_PER_ACTION: Record<keyof NetworkFeeEstimate, bigint> = {
  fill: 2_000n,
  redeem: 1_500n,
  refund: 1_500n,
};
/** Net storage, MIST: a fill stores the order field and its coin; a redeem or refund writes a new coin. */
const STORAGE_PER_ACTION: Record<keyof NetworkFeeEstimate, bigint> = {
  fill: 4_000_000n,
  redeem: 2_000_000n,
  refund: 2_000_000n,
};

export function suiNetworkFees(referenceGasPrice: bigint): NetworkFeeEstimate {
  const perTransaction = UNITS_PER_TRANSACTION * referenceGasPrice;
  const of = (kind: keyof NetworkFeeEstimate) => ({
    perTransaction,
    perAction: UNITS_PER_ACTION[kind] * referenceGasPrice + STORAGE_PER_ACTION[kind],
  });
  return { fill: of("fill"), redeem: of("redeem"), refund: of("refund") };
}

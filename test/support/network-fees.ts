/** Network fee parts for tests whose subject is not network fees: settings that add nothing, and free chains. */
import type { NetworkFeeEstimate } from "../../src/chains/chain.js";
import type { BatchSize } from "../../src/pricing/network-fees/batch-size.js";
import type { FeeEstimator } from "../../src/pricing/network-fees/fee-book.js";
import type { NetworkFeeFacts, NetworkFeeSettings } from "../../src/pricing/network-fees/facts.js";

export const NO_MIN_PROFIT: NetworkFeeSettings = {
  minProfitUsdCents: 0n,
  refundProbabilityBps: 0,
  lossToleranceUsdCents: 0n,
  refreshMs: 60_000,
  maxAgeMs: 3_600_000,
  batchWindowMs: 3_600_000,
};

export const FREE: NetworkFeeEstimate = {
  fill: { perTransaction: 0n, perAction: 0n },
  redeem: { perTransaction: 0n, perAction: 0n },
  refund: { perTransaction: 0n, perAction: 0n },
};

/** Chains whose transactions cost nothing, as their families would report it. */
export function freeChains(chains: readonly string[]): FeeEstimator[] {
  return chains.map((chain) => ({ chain, networkFees: () => Promise.resolve(FREE) }));
}

/** The pricing io parts of network fees, for chains that cost nothing and a journal with no batches. */
export function freeNetworkIo(chains: readonly { name: string }[]): {
  feeEstimators: FeeEstimator[];
  batchSizes: () => Map<string, BatchSize>;
} {
  return { feeEstimators: freeChains(chains.map((c) => c.name)), batchSizes: () => new Map() };
}

/** Facts of free chains read at `atMs`. */
export function freeFacts(chains: readonly string[], atMs: number): NetworkFeeFacts {
  return {
    readings: new Map(chains.map((chain) => [chain, { last: { fees: FREE, atMs }, error: null }])),
    batches: new Map(),
  };
}

/** A quote's `fixed_fee` (whole units, a decimal string) in smallest units of its destination asset. */
export function chargedUnits(fixedFee: string, decimals: number): bigint {
  const [whole = "0", fraction = ""] = fixedFee.split(".");
  return BigInt(whole + fraction.padEnd(decimals, "0"));
}

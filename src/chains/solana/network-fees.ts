/**
 * What the solver's Solana transactions cost at the fees of now: the signature fee plus the priority fee
 * (the compute unit price the executor would pay on a first try, from what recent slots paid, times the
 * unit limit it requests). Solana transactions carry one action each. No rent is lost: the swap account
 * the solver sponsors is closed by the redeem or refund, which returns its rent to the sponsor.
 */
import type { ActionFeeEstimate, NetworkFeeEstimate } from "../chain.js";
import {
  computeUnitLimit,
  computeUnitPrice,
  transactionFeeLamports,
  type PriceBounds,
} from "./priority-fee.js";

/**
 * Compute units charged per action: a bound above what the HTLC programs' SPL instructions (which use
 * more than native ones) take. They matter only at a non-zero priority fee; the executor's own
 * simulation sets what a transaction requests.
 */
export const SOLANA_ACTION_UNITS: Record<keyof NetworkFeeEstimate, bigint> = {
  fill: 60_000n,
  redeem: 50_000n,
  refund: 50_000n,
};

/** The solver signs each of its transactions alone. */
const SIGNATURES = 1;

function priced(units: bigint, price: bigint): ActionFeeEstimate {
  return {
    perTransaction: transactionFeeLamports(SIGNATURES, price, computeUnitLimit(units)),
    perAction: 0n,
  };
}

/** Fees when recent slots paid `recent` micro-lamports per unit, within the chain's bounds. */
export function solanaNetworkFees(recent: readonly bigint[], bounds: PriceBounds): NetworkFeeEstimate {
  const price = computeUnitPrice(recent, 0, bounds);
  return {
    fill: priced(SOLANA_ACTION_UNITS.fill, price),
    redeem: priced(SOLANA_ACTION_UNITS.redeem, price),
    refund: priced(SOLANA_ACTION_UNITS.refund, price),
  };
}

import type { HtlcParams } from "../chains/chain.js";
import type { SwapRecord } from "./types.js";

/**
 * The HTLC terms a swap record states, parties as the API shows them. Where a family's script holds
 * other keys (Bitcoin's delegates), the caller substitutes them.
 */
export function recordParams(swap: SwapRecord): HtlcParams {
  return {
    chain: swap.chain,
    asset: swap.asset,
    swapId: swap.swap_id,
    initiator: swap.initiator,
    redeemer: swap.redeemer,
    secretHash: swap.secret_hash.toLowerCase(),
    timelock: BigInt(swap.timelock),
    amount: BigInt(swap.amount),
  };
}

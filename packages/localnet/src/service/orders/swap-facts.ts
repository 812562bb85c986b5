/** Merges what a watcher saw on chain into a swap record (pure). */
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { SwapFacts } from "../chains/service-chain.js";

/** `min(required, tip - height + 1)`, 0 before the transaction is mined (height 0 or above the tip). */
export function confirmationsAt(required: number, tip: bigint, height: bigint): number {
  if (height <= 0n || tip < height) return 0;
  const seen = tip - height + 1n;
  return seen >= BigInt(required) ? required : Number(seen);
}

export function applyFacts(swap: SwapRecord, facts: SwapFacts, tip: bigint): SwapRecord {
  const next: SwapRecord = { ...swap };
  if (facts.initiate !== undefined) {
    next.initiate_tx_hash = facts.initiate.txHash;
    next.initiate_block_number = facts.initiate.blockNumber.toString();
    next.initiate_timestamp = facts.initiate.timestamp;
    next.filled_amount = facts.initiate.filledAmount.toString();
  }
  if (facts.redeem !== undefined) {
    next.redeem_tx_hash = facts.redeem.txHash;
    next.redeem_block_number = facts.redeem.blockNumber.toString();
    next.redeem_timestamp = facts.redeem.timestamp;
    next.secret = facts.redeem.secret;
  }
  if (facts.refund !== undefined) {
    next.refund_tx_hash = facts.refund.txHash;
    next.refund_block_number = facts.refund.blockNumber.toString();
    next.refund_timestamp = facts.refund.timestamp;
  }
  if (next.initiate_tx_hash !== "") {
    next.current_confirmations = confirmationsAt(
      next.required_confirmations,
      tip,
      BigInt(next.initiate_block_number),
    );
  }
  return next;
}

/**
 * The order state machine (pure). Transitions, each checked on every poll in this order:
 *
 *   any            → RedeemDetected  destination redeem seen
 *   RedeemDetected → Redeemed        destination redeem has the destination's required confirmations
 *   any            → Refunded        either side refunded (and the destination was never redeemed)
 *   Created        → InitiateDetected source initiate seen on chain
 *   InitiateDetected → Initiated     source initiate has the source's required confirmations
 *   Initiated      → AwaitingRedeem  destination initiate seen
 *   Created / InitiateDetected → Expired  the detect deadline passed without a source initiate, or the
 *                                  attested deadline passed without a confirmed one
 *
 * Redeemed, Refunded and Expired do not change again, except that an Expired order still records a
 * refund (→ Refunded) or a destination redeem (→ RedeemDetected → Redeemed), which the chains show anyway.
 */
import type { OrderStatus, SwapRecord } from "htlc-solver/orderbook/types.js";
import { confirmationsAt } from "./swap-facts.js";

export interface StatusInputs {
  previous: OrderStatus;
  source: SwapRecord;
  destination: SwapRecord;
  destinationTip: bigint;
  createdAtMs: number;
  /** Unix seconds: `additional_data.deadline`. */
  deadlineSeconds: number;
  initiateDetectSeconds: number;
  nowMs: number;
}

export function nextStatus(input: StatusInputs): OrderStatus {
  const { source, destination } = input;
  if (destination.redeem_tx_hash !== "") {
    const confirmations = confirmationsAt(
      destination.required_confirmations,
      input.destinationTip,
      BigInt(destination.redeem_block_number),
    );
    return confirmations >= destination.required_confirmations ? "Redeemed" : "RedeemDetected";
  }
  if (source.refund_tx_hash !== "" || destination.refund_tx_hash !== "") return "Refunded";
  if (input.previous === "Expired") return "Expired";
  if (isSourceConfirmed(source)) return destination.initiate_tx_hash !== "" ? "AwaitingRedeem" : "Initiated";
  if (input.nowMs > input.deadlineSeconds * 1000) return "Expired";
  if (source.initiate_tx_hash === "") {
    const detectBy = input.createdAtMs + input.initiateDetectSeconds * 1000;
    return input.nowMs > detectBy ? "Expired" : "Created";
  }
  return "InitiateDetected";
}

/**
 * The source holds the full amount with its required confirmations. On Bitcoin every funding
 * transaction must be mined too: an output still in the mempool (`txid:0` in the list) can vanish.
 */
export function isSourceConfirmed(source: SwapRecord): boolean {
  return (
    source.initiate_tx_hash !== "" &&
    source.current_confirmations >= source.required_confirmations &&
    BigInt(source.filled_amount) >= BigInt(source.amount) &&
    !source.initiate_tx_hash.split(",").some((entry) => entry.endsWith(":0"))
  );
}

/** Redeemed or refunded in a block (a Bitcoin redeem seen only in the mempool may still change). */
const isFinal = (swap: SwapRecord): boolean =>
  (swap.redeem_tx_hash !== "" && swap.redeem_block_number !== "0") ||
  (swap.refund_tx_hash !== "" && swap.refund_block_number !== "0");

/**
 * Nothing more can happen that the order should show: both sides are redeemed or refunded, or the
 * order expired before anything was locked.
 */
export function isSettled(status: OrderStatus, source: SwapRecord, destination: SwapRecord): boolean {
  if (status === "Expired" && source.initiate_tx_hash === "" && destination.initiate_tx_hash === "") {
    return true;
  }
  if (status === "Redeemed" && isFinal(source)) return true;
  const destinationDone = isFinal(destination) || (destination.initiate_tx_hash === "" && isFinal(source));
  return isFinal(source) && destinationDone && status !== "RedeemDetected";
}

/**
 * When the service redeems the destination for the user (pure decision). The service holds the secret
 * of orders it created without a client secret hash; it reveals it on the destination only when:
 * - the destination HTLC has its required confirmations, is neither redeemed nor refunded, and the terms
 *   on chain are the order's (at least its amount, redeemer = destination owner, secret hash of the secret);
 * - the source is locked with its confirmations and not refunded, so the solver can claim it in turn;
 * - no earlier redeem of ours is pending or succeeded (a failed one is retried).
 */
import { createHash } from "node:crypto";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { OnChainTerms } from "../chains/service-chain.js";
import type { RelayRecord } from "../store/relay-store.js";
import { isSourceConfirmed } from "./status.js";

export type RedeemDecision =
  | { kind: "send" }
  /** A redeem of ours is out: find out how it ended before anything else. */
  | { kind: "follow"; relay: RelayRecord }
  | { kind: "skip"; reason: string };

export interface RedeemInputs {
  order: Order;
  secret: string | undefined;
  /** Terms of the destination HTLC as the chain shows them. */
  destinationOnChain: OnChainTerms | null;
  lastRelay: RelayRecord | undefined;
  sameAddress: (a: string, b: string) => boolean;
}

export function serviceRedeemDecision(input: RedeemInputs): RedeemDecision {
  const { order, secret } = input;
  const source = order.source_swap;
  const destination = order.destination_swap;
  if (order.additional_data.user_secret || secret === undefined) return skip("the client holds the secret");
  if (destination.redeem_tx_hash !== "" || destination.refund_tx_hash !== "")
    return skip("destination is final");
  if (destination.initiate_tx_hash === "") return skip("destination is not initiated");
  if (destination.current_confirmations < destination.required_confirmations) {
    return skip("destination initiate lacks confirmations");
  }
  if (!isSourceConfirmed(source) || source.refund_tx_hash !== "") {
    return skip("source is not locked with its confirmations");
  }
  const mismatch = termsMismatch(input, secret);
  if (mismatch !== null) return skip(mismatch);
  if (input.lastRelay?.state === "sent") return { kind: "follow", relay: input.lastRelay };
  if (input.lastRelay?.state === "success") return skip("our redeem succeeded; waiting for the watcher");
  return { kind: "send" };
}

function termsMismatch(input: RedeemInputs, secret: string): string | null {
  const destination = input.order.destination_swap;
  const onChain = input.destinationOnChain;
  if (onChain === null) return "destination terms not readable on chain";
  // More than the amount is still the user's to take (anyone may pay a Bitcoin address); less is not a fill.
  if (onChain.amount < BigInt(destination.amount)) {
    return `destination holds ${onChain.amount} on chain, less than the order's ${destination.amount}`;
  }
  if (!input.sameAddress(onChain.redeemer, destination.redeemer)) {
    return `destination redeemer on chain ${onChain.redeemer} is not the destination owner ${destination.redeemer}`;
  }
  const hash = createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex");
  if (hash !== destination.secret_hash) return "the held secret does not hash to the destination secret hash";
  return null;
}

function skip(reason: string): RedeemDecision {
  return { kind: "skip", reason };
}

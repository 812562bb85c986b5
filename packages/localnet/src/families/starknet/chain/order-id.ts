/**
 * HTLC order ids, Poseidon over the order's terms in one of two layouts:
 * - "deployed" (catalogfi/starknet-htlc `generate_order_id`): chain id, initiator, redeemer, timelock,
 *   amount low, amount high, the secret hash's eight u32 words;
 * - "audited" (the November 2025 audited contract): chain id, the eight words, initiator, redeemer,
 *   timelock, amount low, amount high, the HTLC's own address.
 */
import { hash } from "starknet";
import { u256Parts } from "./felt.js";

export type OrderIdLayout = "deployed" | "audited";

export interface OrderTerms {
  chainId: bigint;
  initiator: bigint;
  redeemer: bigint;
  timelock: bigint;
  amount: bigint;
  secretHashWords: readonly bigint[];
  htlc: bigint;
}

export function orderId(layout: OrderIdLayout, terms: OrderTerms): bigint {
  const { low, high } = u256Parts(terms.amount);
  const parties = [terms.initiator, terms.redeemer, terms.timelock, low, high];
  const elements =
    layout === "deployed"
      ? [terms.chainId, ...parties, ...terms.secretHashWords]
      : [terms.chainId, ...terms.secretHashWords, ...parties, terms.htlc];
  return BigInt(hash.computePoseidonHashOnElements(elements));
}

/**
 * The terms of an order as the solver acts on them: both HTLCs' parameters and where an instant refund
 * pays. Read from the service until the solver commits (fills or instantly refunds); from then on the
 * journal's frozen copy is used, so a service that rewrites an order after the fact cannot move the
 * solver's redeem to another HTLC, its refund to another address, or its secret check to another hash.
 */
import type { HtlcParams } from "../chains/chain.js";
import type { OrderTerms } from "../journal/journal.js";
import type { Order } from "../orderbook/types.js";
import type { OrderAmounts } from "../pricing/order-check.js";
import { chainOf } from "./facts.js";
import { sameParty } from "./filters/party.js";
import { sideParams } from "./order-sides.js";
import type { ChainRegistry } from "./solver-chain.js";

export function statedTerms(order: Order, chains: ChainRegistry): OrderTerms {
  return {
    source: sideParams(order, "source", chainOf(chains, order, "source").reader.userKeyIsDelegate),
    destination: sideParams(
      order,
      "destination",
      chainOf(chains, order, "destination").reader.userKeyIsDelegate,
    ),
    refundAddress: order.source_swap.initiator,
  };
}

/** Which fields of the stated terms differ from the frozen ones (empty when none). */
export function changedTerms(frozen: OrderTerms, stated: OrderTerms): string[] {
  const changed: string[] = [];
  for (const side of ["source", "destination"] as const) {
    for (const key of Object.keys(frozen[side]) as (keyof HtlcParams)[]) {
      if (!sameParty(String(frozen[side][key]), String(stated[side][key]))) changed.push(`${side}.${key}`);
    }
  }
  if (frozen.refundAddress !== stated.refundAddress) changed.push("refundAddress");
  return changed;
}

/**
 * What a fill under these terms pays (the destination's asset and amount) for what it redeems (the
 * source's): exactly what pricing must judge, whatever the service states now.
 */
export function fillAmounts(terms: Pick<OrderTerms, "source" | "destination">): OrderAmounts {
  return {
    fromAsset: terms.source.asset,
    toAsset: terms.destination.asset,
    fromAmount: terms.source.amount,
    toAmount: terms.destination.amount,
  };
}

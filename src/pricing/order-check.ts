/**
 * The last price check before a fill: the solver re-prices the order now and refuses when the order asks
 * for more than today's quote plus a tolerance, or when the pair, limits, inventory or exposure refuse.
 */
import { describeAmount, gasAssetOf } from "./assets.js";
import { checkCapacity } from "./capacity.js";
import { priceRequest, type PricedRequest, type QuoteDeps } from "./quote.js";
import { isRefusal, refuse, type QuoteRefusal } from "./refusal.js";

export interface OrderAmounts {
  fromAsset: string;
  toAsset: string;
  /** Source smallest units. */
  fromAmount: bigint;
  /** Destination smallest units the order asks the solver to fill. */
  toAmount: bigint;
}

export interface OrderCheckOk {
  ok: true;
  /** Today's pricing of the order's source amount. */
  requoted: PricedRequest;
}

export class InvalidToleranceError extends Error {
  constructor(toleranceBps: number) {
    super(`toleranceBps must be a non-negative integer, got ${toleranceBps}`);
    this.name = "InvalidToleranceError";
  }
}

export async function checkOrderAgainstQuote(
  order: OrderAmounts,
  deps: QuoteDeps,
  toleranceBps: number,
): Promise<OrderCheckOk | QuoteRefusal> {
  if (!Number.isInteger(toleranceBps) || toleranceBps < 0) throw new InvalidToleranceError(toleranceBps);
  const requoted = await priceRequest(
    { from: order.fromAsset, to: order.toAsset, fromAmount: order.fromAmount },
    deps,
  );
  if (isRefusal(requoted)) return requoted;

  // order.toAmount / requoted.toAmount must not exceed 1 + tolerance; compared in integers.
  if (order.toAmount * 10_000n > requoted.toAmount * (10_000n + BigInt(toleranceBps))) {
    return refuse(
      "price_moved",
      `order asks ${describeAmount(order.toAmount, requoted.to)} but the solver quotes ` +
        `${describeAmount(requoted.toAmount, requoted.to)} now, beyond the ${toleranceBps} bps tolerance`,
    );
  }
  // Capacity is checked for what the order actually takes, which may exceed today's quote.
  const capacityRefusal = await checkCapacity(
    deps.capacity,
    deps.limits,
    requoted.to,
    order.toAmount,
    gasAssetOf(deps.assets, requoted.to.chain),
  );
  if (capacityRefusal !== undefined) return capacityRefusal;
  return { ok: true, requoted };
}

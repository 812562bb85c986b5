/**
 * The last price check before a fill: the solver re-prices the order at the prices of now and refuses when
 * the order asks for more than that quote plus a tolerance, or when the pair, limits, inventory or exposure
 * refuse. The requote reads the inventory curve where quotes read it, at the destination inventory before
 * this fill: an order quoted while inventory was high pays the wider fee once inventory has fallen, so
 * `price_moved` means "asks for more than the solver would quote now", whether the market or the
 * inventory moved.
 */
import { describeAmount } from "./assets.js";
import { checkCapacityFor, priceRequest, type PricedRequest, type QuoteDeps } from "./quote.js";
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

/**
 * The price alone: requote the order's source amount, the curve read at `holding` (the destination's
 * inventory before this fill; the inventory of now when absent), and compare. The fill gate asks this with
 * the inventory each fill finds after those admitted before it, and judges capacity itself.
 */
export async function checkOrderPrice(
  order: OrderAmounts,
  deps: QuoteDeps,
  toleranceBps: number,
  holding?: bigint,
): Promise<OrderCheckOk | QuoteRefusal> {
  checkTolerance(toleranceBps);
  const requoted = await requote(order, deps, holding);
  if (isRefusal(requoted)) return requoted;
  return judgePrice(order, requoted, toleranceBps);
}

/**
 * The check before a fill: the requote's own refusals (pair, limits, prices), then capacity for what the
 * order takes, then the price. An order the solver cannot carry now waits for inventory rather than
 * being refused for the wider fee the curve asks at an inventory too low for it anyway; once it can be
 * carried, it is priced at the inventory of then.
 */
export async function checkOrderAgainstQuote(
  order: OrderAmounts,
  deps: QuoteDeps,
  toleranceBps: number,
): Promise<OrderCheckOk | QuoteRefusal> {
  checkTolerance(toleranceBps);
  const requoted = await requote(order, deps);
  if (isRefusal(requoted)) return requoted;
  // Capacity is checked for what the order actually takes, which may exceed today's quote.
  const capacityRefusal = await checkCapacityFor(deps, requoted.to, order.toAmount);
  if (capacityRefusal !== undefined) return capacityRefusal;
  return judgePrice(order, requoted, toleranceBps);
}

function checkTolerance(toleranceBps: number): void {
  if (!Number.isInteger(toleranceBps) || toleranceBps < 0) throw new InvalidToleranceError(toleranceBps);
}

function requote(
  order: OrderAmounts,
  deps: QuoteDeps,
  holding?: bigint,
): Promise<PricedRequest | QuoteRefusal> {
  return priceRequest(
    { from: order.fromAsset, to: order.toAsset, fromAmount: order.fromAmount },
    deps,
    holding,
  );
}

/** The order may ask at most the tolerance more than the requote. */
function judgePrice(
  order: OrderAmounts,
  requoted: PricedRequest,
  toleranceBps: number,
): OrderCheckOk | QuoteRefusal {
  // order.toAmount / requoted.toAmount must not exceed 1 + tolerance; compared in integers.
  if (order.toAmount * 10_000n > requoted.toAmount * (10_000n + BigInt(toleranceBps))) {
    return refuse(
      "price_moved",
      `order asks ${describeAmount(order.toAmount, requoted.to)} but the solver quotes ` +
        `${describeAmount(requoted.toAmount, requoted.to)} now, beyond the ${toleranceBps} bps tolerance`,
    );
  }
  return { ok: true, requoted };
}

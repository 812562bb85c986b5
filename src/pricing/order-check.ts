/**
 * The last price check before a fill: the solver re-prices the order at the prices of now and refuses when
 * the order asks for more than that quote plus a tolerance, or when the pair, limits, inventory or exposure
 * refuse. The requote reads the inventory curve where quotes read it, at the destination inventory before
 * this fill: an order quoted while inventory was high pays the wider fee once inventory has fallen, so
 * `price_moved` means "asks for more than the solver would quote now", whether the market or the
 * inventory moved. Network fees are judged apart: an order whose fees of now exceed what it leaves for
 * them by more than `networkFees.lossToleranceUsdCents` waits (`network_fees`), since fees fall again,
 * until its deadline refuses it; the minimum profit is a quote's margin, not asked again here.
 */
import { describeAmount } from "./assets.js";
import { centsInDestination } from "./network-fees/view.js";
import {
  checkCapacityFor,
  networkFeeRefusal,
  priceRequest,
  type PricedRequest,
  type QuoteDeps,
} from "./quote.js";
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
  return judgePrice(order, requoted, toleranceBps, deps.networkFees.settings.lossToleranceUsdCents);
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
  return judgePrice(order, requoted, toleranceBps, deps.networkFees.settings.lossToleranceUsdCents);
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

/**
 * The order may ask at most the tolerance more than the requote before network fees, and the network
 * fees of now may exceed what that leaves by at most the loss tolerance.
 */
function judgePrice(
  order: OrderAmounts,
  requoted: PricedRequest,
  toleranceBps: number,
  lossToleranceUsdCents: bigint,
): OrderCheckOk | QuoteRefusal {
  const { to, beforeNetwork, charge } = requoted;
  // order.toAmount / beforeNetwork must not exceed 1 + tolerance; compared in integers.
  if (order.toAmount * 10_000n > beforeNetwork * (10_000n + BigInt(toleranceBps))) {
    return refuse(
      "price_moved",
      `order asks ${describeAmount(order.toAmount, to)} but the solver quotes ` +
        `${describeAmount(beforeNetwork, to)} before network fees now, beyond the ${toleranceBps} bps tolerance`,
    );
  }
  // Fees are paid out of what the price check allows: the market's move and the fees' rise each have
  // their own tolerance, and the solver's loss on an order is bounded by the two together.
  const allowed = (beforeNetwork * (10_000n + BigInt(toleranceBps))) / 10_000n;
  const shortfall = order.toAmount + charge.networkFee - allowed;
  const tolerated = centsInDestination(lossToleranceUsdCents, to);
  if (shortfall > tolerated) {
    return networkFeeRefusal(
      requoted,
      `order asks ${describeAmount(order.toAmount, to)}, which leaves ${describeAmount(shortfall, to)} ` +
        `of its network fees unpaid, more than the loss tolerance of ${describeAmount(tolerated, to)}`,
    );
  }
  return { ok: true, requoted };
}

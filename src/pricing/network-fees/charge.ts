/**
 * What an order is charged for the network fees it causes, and the solver's minimum profit, in the
 * destination asset's smallest units. The expected fees are the destination fill, the source redeem,
 * and the destination refund weighted by its probability, each at its chain's fees of now and its
 * recent batch size, converted from the chain's coin at the solver's prices. Exact ratios throughout,
 * rounded up once per part: the solver never undercharges by a rounding.
 */
import type { ActionFeeEstimate } from "../../chains/chain.js";
import { centsUsd, sumUsd, usdValue, type Usd } from "../../pnl/usd.js";
import { convertAmount, type PricedAsset } from "../conversion.js";
import { addRatios, ceilRatio, mulRatio, pow10, type Ratio } from "../decimal.js";
import { perActionFee, type BatchSize } from "./batch-size.js";

const BPS = 10_000n;

/** One action's fee estimate on its chain, its recent batch size, and the chain's coin as priced now. */
export interface PricedActionFee {
  estimate: ActionFeeEstimate;
  batch: BatchSize;
  coin: PricedAsset & { id: string; usdPriceText: string };
}

export interface ChargeInput {
  fill: PricedActionFee;
  redeem: PricedActionFee;
  refund: PricedActionFee;
  /** Chance that the solver refunds its fill (the user never redeems it), bps. */
  refundProbabilityBps: number;
  /** Least profit per order beyond its fees, USD cents. */
  minProfitUsdCents: bigint;
  destination: PricedAsset;
}

export interface NetworkCharge {
  /** Expected network fees of the order, destination smallest units, rounded up. */
  networkFee: bigint;
  /** The minimum profit, destination smallest units, rounded up. */
  minProfit: bigint;
  /** What the quote takes off for both. */
  total: bigint;
  /** The expected fees in USD, for the log. */
  networkFeeUsd: string;
  /** Each part's figures, for the log. */
  detail: string;
}

/** `value` coin smallest units (a ratio) in destination smallest units, exactly. */
function inDestination(value: Ratio, coin: PricedAsset, destination: PricedAsset): Ratio {
  const perUnit = convertAmount(1n, coin, destination);
  return mulRatio(value, perUnit);
}

function usdOf(value: Ratio, coin: PricedActionFee["coin"]): Usd {
  // The fee in coin units, rounded up to a whole smallest unit, is what the log shows.
  return usdValue(ceilRatio(value), coin.decimals, coin.usdPriceText);
}

function checkProbability(bps: number): bigint {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) {
    throw new RangeError(`refundProbabilityBps must be an integer from 0 to 10000, got ${bps}`);
  }
  return BigInt(bps);
}

export function networkCharge(input: ChargeInput): NetworkCharge {
  const probability = checkProbability(input.refundProbabilityBps);
  const fill = perActionFee(input.fill.estimate, input.fill.batch);
  const redeem = perActionFee(input.redeem.estimate, input.redeem.batch);
  const refund = mulRatio(perActionFee(input.refund.estimate, input.refund.batch), {
    num: probability,
    den: BPS,
  });
  const { destination } = input;
  const total = [
    inDestination(fill, input.fill.coin, destination),
    inDestination(redeem, input.redeem.coin, destination),
    inDestination(refund, input.refund.coin, destination),
  ].reduce(addRatios);
  const networkFee = ceilRatio(total);
  // cents / 100 USD at price USD per whole unit: cents × 10^decimals × den / (100 × num).
  const minProfit = ceilRatio({
    num: input.minProfitUsdCents * pow10(destination.decimals) * destination.usdPrice.den,
    den: 100n * destination.usdPrice.num,
  });
  const usd = sumUsd([
    usdOf(fill, input.fill.coin),
    usdOf(redeem, input.redeem.coin),
    usdOf(refund, input.refund.coin),
  ]);
  const part = (name: string, value: Ratio, fee: PricedActionFee) =>
    `${name} ${ceilRatio(value)} ${fee.coin.id} (batch ${fee.batch.actions}/${fee.batch.transactions})`;
  const detail = [
    part("fill", fill, input.fill),
    part("redeem", redeem, input.redeem),
    `${part("refund", refund, input.refund)} at ${input.refundProbabilityBps} bps`,
  ].join(", ");
  return {
    networkFee,
    minProfit,
    total: networkFee + minProfit,
    networkFeeUsd: centsUsd(usd),
    detail,
  };
}

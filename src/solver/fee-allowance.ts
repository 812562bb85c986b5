/**
 * What a source redeem about to miss its deadline may pay above the fee ceiling. A missed redeem loses
 * the whole source to the user's refund, so it may pay up to a configured share of the value it redeems,
 * in the chain's fee coin: the redeemed amount itself where the source is that coin, else the redeemed
 * value converted at the solver's prices of now. Without a usable price there is no allowance beyond the
 * ceiling for that value, and the log says why.
 */
import type { Logger } from "pino";
import type { FeeAllowance } from "../chains/chain.js";
import type { ActionRow } from "../journal/journal.js";
import type { AssetIndex } from "../pricing/assets.js";
import { convertAmount } from "../pricing/conversion.js";
import { floorRatio } from "../pricing/decimal.js";
import { PriceUnavailableError, readPrice, type PriceSource } from "../pricing/price-source.js";

export interface UrgentRedeemPolicy {
  nowMs: number;
  /** Inside this much time before a redeem's `mustConfirmByMs`, it is urgent. */
  urgencyMarginMs: number;
  /** Share of a redeemed source's value an urgent redeem may pay in fees, bps; 0 keeps ceilings absolute. */
  urgentRedeemFeeBps: number;
  /** Every configured asset: decimals for the conversion. */
  assets: AssetIndex;
  /** The asset a chain's fees are paid in, as its family says (`ChainExecutor.feeAsset`). */
  feeAssetOf: (chain: string) => string | null;
  /** The solver's prices of now. */
  prices: PriceSource;
  logger: Logger;
}

type UrgentAction = Pick<ActionRow, "kind" | "request">;

/** Undefined when nothing is urgent, or nothing urgent has a value in the fee coin. */
export async function urgentRedeemAllowance(
  actions: readonly UrgentAction[],
  policy: UrgentRedeemPolicy,
): Promise<FeeAllowance | undefined> {
  if (policy.urgentRedeemFeeBps <= 0) return undefined;
  const urgent = actions.filter(({ kind, request }) => {
    const deadline = request.mustConfirmByMs;
    return kind === "redeem" && deadline !== undefined && deadline - policy.nowMs < policy.urgencyMarginMs;
  });
  const first = urgent[0];
  if (first === undefined) return undefined;
  // One transaction's actions are all on one chain.
  const { chain } = first.request.params;
  const feeAsset = policy.feeAssetOf(chain);
  if (feeAsset === null) {
    policy.logger.warn(
      { chain, orderId: first.request.orderId },
      "urgent redeem gets no fee allowance: the chain's fee coin is not a configured asset",
    );
    return undefined;
  }
  const values = await Promise.all(urgent.map(({ request }) => valueInFeeAsset(request, feeAsset, policy)));
  const value = values.reduce((sum, v) => sum + v, 0n);
  if (value === 0n) return undefined;
  const maxFee = (value * BigInt(policy.urgentRedeemFeeBps)) / 10_000n;
  return {
    maxFee,
    reason: `source redeem near its deadline: up to ${policy.urgentRedeemFeeBps} bps of the ${value} smallest units of ${feeAsset} it redeems`,
  };
}

/** The redeemed amount in smallest units of the fee asset, rounded down; 0 when it cannot be priced. */
async function valueInFeeAsset(
  request: UrgentAction["request"],
  feeAsset: string,
  policy: UrgentRedeemPolicy,
): Promise<bigint> {
  const { asset: redeemed, amount, chain } = request.params;
  if (redeemed === feeAsset) return amount;
  const from = policy.assets.get(redeemed);
  const to = policy.assets.get(feeAsset);
  if (from === undefined || to === undefined) {
    policy.logger.warn(
      { orderId: request.orderId, chain, asset: from === undefined ? redeemed : feeAsset },
      "urgent redeem gets no fee allowance for this value: its asset is not configured",
    );
    return 0n;
  }
  try {
    const [fromPrice, toPrice] = await Promise.all([
      readPrice(policy.prices, redeemed),
      readPrice(policy.prices, feeAsset),
    ]);
    const converted = convertAmount(
      amount,
      { decimals: from.decimals, usdPrice: fromPrice },
      { decimals: to.decimals, usdPrice: toPrice },
    );
    return floorRatio(converted);
  } catch (error) {
    if (!(error instanceof PriceUnavailableError)) throw error;
    policy.logger.warn(
      { orderId: request.orderId, chain, asset: error.assetId, reason: error.reason, detail: error.message },
      "urgent redeem gets no fee allowance for this value: no usable price",
    );
    return 0n;
  }
}

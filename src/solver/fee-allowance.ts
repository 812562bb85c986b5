import { isNativeToken } from "../chains/evm/assets.js";
import type { FeeAllowance } from "../chains/chain.js";
import type { AssetConfig } from "../config/types.js";
import type { ActionRow } from "../journal/journal.js";

export interface UrgentRedeemPolicy {
  nowMs: number;
  /** Inside this much time before a redeem's `mustConfirmByMs`, it is urgent. */
  urgencyMarginMs: number;
  /** Share of a redeemed source's value an urgent redeem may pay in fees, bps; 0 keeps ceilings absolute. */
  urgentRedeemFeeBps: number;
  assets: readonly AssetConfig[];
}

/** The chain's own coin: the unit fees are paid in, so a share of it is a fee amount. */
function isChainCoin(asset: AssetConfig): boolean {
  return asset.tokenAddress === "primary" || isNativeToken(asset.tokenAddress);
}

/**
 * A source redeem about to miss its deadline loses the whole source to the user's refund, so it may pay
 * above the fee ceiling: up to the configured share of the value it redeems. Only where that value is the
 * chain's own coin (a token's value is not in the fee's unit). Undefined when nothing is urgent.
 */
export function urgentRedeemAllowance(
  actions: readonly Pick<ActionRow, "kind" | "request">[],
  policy: UrgentRedeemPolicy,
): FeeAllowance | undefined {
  if (policy.urgentRedeemFeeBps <= 0) return undefined;
  let value = 0n;
  for (const { kind, request } of actions) {
    const deadline = request.mustConfirmByMs;
    if (kind !== "redeem" || deadline === undefined) continue;
    if (deadline - policy.nowMs >= policy.urgencyMarginMs) continue;
    const asset = policy.assets.find((a) => a.id === request.params.asset);
    if (asset === undefined || !isChainCoin(asset)) continue;
    value += request.params.amount;
  }
  if (value === 0n) return undefined;
  const maxFee = (value * BigInt(policy.urgentRedeemFeeBps)) / 10_000n;
  return {
    maxFee,
    reason: `source redeem near its deadline: up to ${policy.urgentRedeemFeeBps} bps of ${value} redeemed`,
  };
}

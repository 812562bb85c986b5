/**
 * The gas a Sui transaction is signed with: the reference gas price, refused above the configured
 * ceiling (never signed higher); a budget of the dry run's computation and storage plus the margin, at
 * least the node's minimum (price × 1000), and never above the budget ceiling (or an urgent action's
 * allowance).
 */
import type { FeeAllowance } from "../chain.js";
import { SuiActionError } from "./errors.js";
import type { GasCost } from "./rpc-schemas.js";
import type { SuiChainConfig } from "./config.js";

type GasSettings = Pick<
  SuiChainConfig,
  "name" | "maxGasPriceMist" | "maxGasBudgetMist" | "gasBudgetMarginPercent"
>;

/** The node takes no budget below this many units at the price. */
export const MIN_BUDGET_UNITS = 1_000n;

export function checkedGasPrice(settings: GasSettings, reference: bigint): bigint {
  if (reference > settings.maxGasPriceMist)
    throw new SuiActionError(
      `${settings.name}: the reference gas price ${reference} MIST passes the ceiling maxGasPriceMist ${settings.maxGasPriceMist}`,
    );
  return reference;
}

/** The most one transaction's budget may be: the ceiling, or an allowance above it. */
export function budgetCap(settings: GasSettings, allowance?: FeeAllowance): bigint {
  return allowance !== undefined && allowance.maxFee > settings.maxGasBudgetMist
    ? allowance.maxFee
    : settings.maxGasBudgetMist;
}

/** The budget for a dry run's cost, or a refusal naming the ceiling it passes. */
export function budgetOf(
  settings: GasSettings,
  cost: GasCost,
  price: bigint,
  allowance?: FeeAllowance,
): bigint {
  const used = cost.computationCost + cost.storageCost;
  const margin = BigInt(100 + settings.gasBudgetMarginPercent);
  let budget = (used * margin + 99n) / 100n;
  if (budget < price * MIN_BUDGET_UNITS) budget = price * MIN_BUDGET_UNITS;
  const cap = budgetCap(settings, allowance);
  if (budget > cap)
    throw new SuiActionError(
      `${settings.name}: the dry run's gas (${used} MIST) with its margin passes the budget ceiling of ${cap} MIST`,
    );
  return budget;
}

/** What the transaction's gas coin paid: computation and storage less the rebate, within its budget. */
export function gasPaid(cost: GasCost, budget: bigint): bigint {
  const net = cost.computationCost + cost.storageCost - cost.storageRebate;
  if (net < 0n) return 0n;
  return net > budget ? budget : net;
}

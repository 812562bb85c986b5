/** Gas prices, the fee a transaction is charged, and the most it may be charged (its bounds). */
import type { GasUsage } from "./gas.js";
import type { InvokeV3, ResourceBounds } from "./invoke-txn.js";
import { BASE_L1_DATA_GAS, VALIDATE_L2_GAS } from "./gas.js";

/** Per-unit prices in FRI (10^-18 STRK). */
export interface GasPrices {
  l1: bigint;
  l2: bigint;
  l1Data: bigint;
}

/** Defaults of the order of Starknet Sepolia's: l1 gas 30 000 gwei-FRI, l2 gas 8 gwei-FRI, blob data cheap. */
export const DEFAULT_GAS_PRICES: GasPrices = {
  l1: 30_000_000_000_000n,
  l2: 8_000_000_000n,
  l1Data: 1_000_000n,
};

/** What a transaction pays for the gas it used: each resource at the block's price, the tip on l2 gas. */
export function chargedFee(usage: GasUsage, prices: GasPrices, tip: bigint): bigint {
  return usage.l1Gas * prices.l1 + usage.l2Gas * (prices.l2 + tip) + usage.l1DataGas * prices.l1Data;
}

/** The most a transaction can be charged: Σ max_amount × max_price_per_unit + tip × l2 max_amount. */
export function maxFee(bounds: ResourceBounds, tip: bigint): bigint {
  return (
    bounds.l1Gas.maxAmount * bounds.l1Gas.maxPricePerUnit +
    bounds.l2Gas.maxAmount * bounds.l2Gas.maxPricePerUnit +
    bounds.l1DataGas.maxAmount * bounds.l1DataGas.maxPricePerUnit +
    tip * bounds.l2Gas.maxAmount
  );
}

/** Bounds too small to pay for validation: the transaction cannot even be validated. */
export function coversValidation(bounds: ResourceBounds): boolean {
  return bounds.l2Gas.maxAmount >= VALIDATE_L2_GAS && bounds.l1DataGas.maxAmount >= BASE_L1_DATA_GAS;
}

/** A waiting transaction is included only in a block whose prices are all within its bounds. */
export function pricesWithinBounds(tx: InvokeV3, prices: GasPrices): boolean {
  const b = tx.resourceBounds;
  return (
    b.l1Gas.maxPricePerUnit >= prices.l1 &&
    b.l2Gas.maxPricePerUnit >= prices.l2 &&
    b.l1DataGas.maxPricePerUnit >= prices.l1Data
  );
}

/**
 * Modelled gas of the local Sui chain. Computation: 400 units per `MoveCall`, 100 per other command and 1
 * per byte of the transaction's BCS, at least 1 000 units (the smallest charge, as a real node's lowest
 * bucket), times the transaction's gas price. Storage: each object written costs its modelled size in
 * bytes times 76 MIST (the storage price); rewriting or deleting an object gives back 99% of the storage
 * fee it carries, 1% is kept (non-refundable).
 */
import type { Command } from "./ptb-runner.js";

export const STORAGE_PRICE = 76n;
export const MIN_COMPUTATION_UNITS = 1_000n;
/** The most a transaction may budget (50 SUI, as on the public networks). */
export const MAX_GAS_BUDGET = 50_000_000_000n;
const MOVE_CALL_UNITS = 400n;
const COMMAND_UNITS = 100n;

export function computationUnits(commands: readonly Command[], transactionBytes: number): bigint {
  const perCommand = commands.reduce(
    (sum, command) => sum + (command.$kind === "MoveCall" ? MOVE_CALL_UNITS : COMMAND_UNITS),
    0n,
  );
  const units = perCommand + BigInt(transactionBytes);
  return units > MIN_COMPUTATION_UNITS ? units : MIN_COMPUTATION_UNITS;
}

/** The smallest budget a transaction at `price` may carry. */
export function minimumBudget(price: bigint): bigint {
  return MIN_COMPUTATION_UNITS * price;
}

export interface GasSummary {
  computationCost: bigint;
  storageCost: bigint;
  storageRebate: bigint;
  nonRefundableStorageFee: bigint;
}

/** What the gas coin pays (negative: it receives). */
export function netGasCharge(gas: GasSummary): bigint {
  return gas.computationCost + gas.storageCost - gas.storageRebate;
}

/** 99% of a rewritten or deleted object's storage fee comes back; the rest is the non-refundable part. */
export function rebateOf(storageFee: bigint): { rebate: bigint; kept: bigint } {
  const rebate = (storageFee * 99n) / 100n;
  return { rebate, kept: storageFee - rebate };
}

/**
 * Largest-first coin selection. It spends the fewest inputs for a target (the cheapest choice at the
 * moment of payment), is easy to reason about, and takes confirmed outputs before unconfirmed change, so
 * the solver rarely chains a payment onto a transaction it may still have to replace. Branch-and-bound
 * would save the change output now and then; the solver's payments are few and large, so it is not worth
 * the complexity here.
 */
import { feeForWeight } from "./fee.js";

export interface SpendableUtxo {
  txid: string;
  vout: number;
  value: bigint;
  /** False for change of the solver's own unconfirmed transactions. */
  confirmed: boolean;
}

export interface SelectionRequest {
  utxos: SpendableUtxo[];
  /** Sum of the payment outputs (without change). */
  target: bigint;
  feeRateSatVb: bigint;
  /** Weight of everything but the selected inputs and the change output (overhead, outputs). */
  baseWeight: number;
  /** Weight of one selected input, witness included. */
  inputWeight: number;
  changeWeight: number;
  /** Change below this is not created; it goes to the fee instead. */
  dustLimit: bigint;
  /** Keeps the input count (and the count's varint) bounded. */
  maxInputs?: number;
}

export interface Selection {
  inputs: SpendableUtxo[];
  fee: bigint;
  /** 0n when no change output is created. */
  change: bigint;
}

export class InsufficientFundsError extends Error {
  constructor(
    readonly needed: bigint,
    readonly available: bigint,
  ) {
    super(
      `insufficient Bitcoin wallet funds: need ${needed} sat (payment plus fee), spendable ${available} sat`,
    );
    this.name = "InsufficientFundsError";
  }
}

export function orderLargestFirst(utxos: SpendableUtxo[]): SpendableUtxo[] {
  return [...utxos].sort((a, b) => {
    if (a.confirmed !== b.confirmed) return a.confirmed ? -1 : 1;
    if (a.value !== b.value) return a.value > b.value ? -1 : 1;
    return a.txid === b.txid ? a.vout - b.vout : a.txid < b.txid ? -1 : 1;
  });
}

export function selectCoins(request: SelectionRequest): Selection {
  const { target, feeRateSatVb, baseWeight, inputWeight, changeWeight, dustLimit } = request;
  if (target <= 0n) throw new Error(`payment target must be positive, got ${target}`);
  const maxInputs = request.maxInputs ?? 200;
  const chosen: SpendableUtxo[] = [];
  let total = 0n;
  for (const utxo of orderLargestFirst(request.utxos).slice(0, maxInputs)) {
    chosen.push(utxo);
    total += utxo.value;
    const inputsWeight = baseWeight + chosen.length * inputWeight;
    const feeWithoutChange = feeForWeight(inputsWeight, feeRateSatVb);
    if (total < target + feeWithoutChange) continue;
    const feeWithChange = feeForWeight(inputsWeight + changeWeight, feeRateSatVb);
    const change = total - target - feeWithChange;
    if (change >= dustLimit) return { inputs: chosen, fee: feeWithChange, change };
    return { inputs: chosen, fee: total - target, change: 0n };
  }
  const needed = target + feeForWeight(baseWeight + Math.max(chosen.length, 1) * inputWeight, feeRateSatVb);
  throw new InsufficientFundsError(needed, total);
}

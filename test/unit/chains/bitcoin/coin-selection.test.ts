import { describe, expect, it } from "vitest";
import {
  InsufficientFundsError,
  selectCoins,
  type SpendableUtxo,
} from "../../../../src/chains/bitcoin/coin-selection.js";
import {
  P2TR_DUST_LIMIT,
  P2TR_KEYPATH_INPUT_WEIGHT,
  P2TR_OUTPUT_WEIGHT,
  txOverheadWeight,
} from "../../../../src/chains/bitcoin/tx-size.js";

const utxo = (n: number, value: bigint, confirmed = true): SpendableUtxo => ({
  txid: n.toString(16).padStart(64, "0"),
  vout: 0,
  value,
  confirmed,
});

const base = {
  feeRateSatVb: 2n,
  baseWeight: txOverheadWeight(1, 2) + P2TR_OUTPUT_WEIGHT,
  inputWeight: P2TR_KEYPATH_INPUT_WEIGHT,
  changeWeight: P2TR_OUTPUT_WEIGHT,
  dustLimit: P2TR_DUST_LIMIT,
};

describe("selectCoins (largest first)", () => {
  it("takes the largest output first and returns change", () => {
    const result = selectCoins({
      ...base,
      utxos: [utxo(1, 10_000n), utxo(2, 500_000n), utxo(3, 90_000n)],
      target: 100_000n,
    });
    expect(result.inputs.map((u) => u.value)).toEqual([500_000n]);
    // One key-path input, payment and change outputs: 154 vB at 2 sat/vB.
    expect(result.fee).toBe(308n);
    expect(result.change).toBe(500_000n - 100_000n - 308n);
  });

  it("adds inputs until payment and fee are covered", () => {
    const result = selectCoins({
      ...base,
      utxos: [utxo(1, 60_000n), utxo(2, 50_000n), utxo(3, 1_000n)],
      target: 100_000n,
    });
    expect(result.inputs.map((u) => u.value)).toEqual([60_000n, 50_000n]);
    expect(result.inputs.reduce((s, u) => s + u.value, 0n)).toBe(100_000n + result.fee + result.change);
  });

  it("gives change below dust to the fee instead of creating it", () => {
    // 100_000 + fee without change (2 × 111 vB = 222) leaves 300 sat: with a change output it would be dust.
    const result = selectCoins({ ...base, utxos: [utxo(1, 100_522n)], target: 100_000n });
    expect(result.change).toBe(0n);
    expect(result.fee).toBe(522n);
  });

  it("prefers confirmed outputs over larger unconfirmed change", () => {
    const result = selectCoins({
      ...base,
      utxos: [utxo(1, 900_000n, false), utxo(2, 200_000n, true)],
      target: 100_000n,
    });
    expect(result.inputs.map((u) => u.confirmed)).toEqual([true]);
  });

  it("names what is missing when funds do not cover payment and fee", () => {
    const run = () => selectCoins({ ...base, utxos: [utxo(1, 50_000n), utxo(2, 40_000n)], target: 100_000n });
    expect(run).toThrow(InsufficientFundsError);
    expect(run).toThrow(/spendable 90000 sat/);
  });
});

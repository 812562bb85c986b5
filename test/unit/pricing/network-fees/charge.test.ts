/**
 * The network charge's arithmetic, in exact integers: each action's fee at its batch size, converted
 * from its chain's coin, the refund weighted by its probability, the minimum profit, rounded up once.
 */
import { describe, expect, it } from "vitest";
import { LONE_ACTION, perActionFee } from "../../../../src/pricing/network-fees/batch-size.js";
import { networkCharge, type PricedActionFee } from "../../../../src/pricing/network-fees/charge.js";
import { parseDecimal } from "../../../../src/pricing/decimal.js";

const GWEI = 10n ** 9n;
const eth = { id: "ethereum:eth", decimals: 18, usdPrice: parseDecimal("3000"), usdPriceText: "3000" };
const btc = { id: "bitcoin:btc", decimals: 8, usdPrice: parseDecimal("60000"), usdPriceText: "60000" };
const usdc = { decimals: 6, usdPrice: parseDecimal("1") };

/** 20,000 gas for the transaction and 100,000 for the call, at 10 gwei: 0.0012 ETH alone, $3.60. */
const evmFill: PricedActionFee = {
  estimate: { perTransaction: 20_000n * 10n * GWEI, perAction: 100_000n * 10n * GWEI },
  batch: LONE_ACTION,
  coin: eth,
};
/** 1,000 sats alone: $0.60. */
const btcRedeem: PricedActionFee = {
  estimate: { perTransaction: 400n, perAction: 600n },
  batch: LONE_ACTION,
  coin: btc,
};

describe("perActionFee", () => {
  it("shares the transaction's own cost among the actions recently carried per transaction", () => {
    const estimate = { perTransaction: 400n, perAction: 600n };
    expect(perActionFee(estimate, LONE_ACTION)).toEqual({ num: 1_000n, den: 1n });
    // 10 actions in 2 transactions: 600 + 400 × 2 / 10 = 680.
    const shared = perActionFee(estimate, { transactions: 2, actions: 10 });
    expect(shared.num / shared.den).toBe(680n);
    expect(shared.num % shared.den).toBe(0n);
    // 3 actions in 2 transactions: 600 + 800 / 3, exactly.
    expect(perActionFee(estimate, { transactions: 2, actions: 3 })).toEqual({ num: 2_600n, den: 3n });
  });

  it("never discounts beyond one action per transaction, nor on a batch it did not measure", () => {
    const estimate = { perTransaction: 400n, perAction: 600n };
    expect(perActionFee(estimate, { transactions: 4, actions: 2 })).toEqual({ num: 4_000n, den: 4n });
    expect(perActionFee(estimate, { transactions: 0, actions: 0 })).toEqual({ num: 1_000n, den: 1n });
  });
});

describe("networkCharge", () => {
  it("charges fill, redeem and the refund at its probability, converted to the destination, plus the minimum profit", () => {
    const charge = networkCharge({
      fill: evmFill,
      redeem: btcRedeem,
      refund: evmFill,
      refundProbabilityBps: 500,
      minProfitUsdCents: 25n,
      destination: usdc,
    });
    // $3.60 + $0.60 + 5 % of $3.60 = $4.38; $0.25 of profit.
    expect(charge.networkFee).toBe(4_380_000n);
    expect(charge.minProfit).toBe(250_000n);
    expect(charge.total).toBe(4_630_000n);
    expect(charge.networkFeeUsd).toBe("4.38");
    expect(charge.detail).toContain("fill 1200000000000000 ethereum:eth (batch 1/1)");
  });

  it("charges each fill its share of a batch the solver achieved", () => {
    const batched = { ...evmFill, batch: { transactions: 1, actions: 10 } };
    const charge = networkCharge({
      fill: batched,
      redeem: btcRedeem,
      refund: evmFill,
      refundProbabilityBps: 0,
      minProfitUsdCents: 0n,
      destination: usdc,
    });
    // 0.001 ETH + 0.0002 / 10 ETH = 0.00102 ETH = $3.06, plus the $0.60 redeem.
    expect(charge.networkFee).toBe(3_660_000n);
  });

  it("rounds up: a fee worth less than a smallest unit is charged one, never nothing", () => {
    const dust: PricedActionFee = {
      estimate: { perTransaction: 1n, perAction: 0n },
      batch: LONE_ACTION,
      coin: eth,
    };
    const charge = networkCharge({
      fill: dust,
      redeem: dust,
      refund: dust,
      refundProbabilityBps: 10_000,
      minProfitUsdCents: 1n,
      destination: { decimals: 8, usdPrice: parseDecimal("60000") },
    });
    // 3 wei are worth far less than a satoshi: one satoshi. One cent at $60,000 is 16.67 satoshis: 17.
    expect(charge.networkFee).toBe(1n);
    expect(charge.minProfit).toBe(17n);
  });

  it("refuses a refund probability outside 0..10000 bps", () => {
    const input = {
      fill: evmFill,
      redeem: btcRedeem,
      refund: evmFill,
      minProfitUsdCents: 0n,
      destination: usdc,
    };
    expect(() => networkCharge({ ...input, refundProbabilityBps: 10_001 })).toThrow(/refundProbabilityBps/);
    expect(() => networkCharge({ ...input, refundProbabilityBps: 0.5 })).toThrow(/refundProbabilityBps/);
  });
});

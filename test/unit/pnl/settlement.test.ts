import { describe, expect, it } from "vitest";
import { feeShare, settlementLegs, type SettlementAction } from "../../../src/pnl/settlement.js";

const DECIMALS: Record<string, number> = { "bitcoin_regtest:btc": 8, "arbitrum_localnet:wbtc": 8 };
const decimalsOf = (asset: string) => DECIMALS[asset] ?? 18;
const feeAssetOf = (chain: string) =>
  chain === "bitcoin_regtest"
    ? { id: "bitcoin_regtest:btc", decimals: 8 }
    : { id: `${chain}:eth`, decimals: 18 };

const fill: SettlementAction = {
  id: 1,
  kind: "fill",
  confirmed: true,
  asset: "arbitrum_localnet:wbtc",
  amount: 997_000n,
};
const redeem: SettlementAction = {
  id: 2,
  kind: "redeem",
  confirmed: true,
  asset: "bitcoin_regtest:btc",
  amount: 1_000_000n,
};

describe("settlementLegs", () => {
  it("counts the source received, the destination given and every fee paid", () => {
    const legs = settlementLegs(
      [fill, redeem],
      [
        { id: 10, chain: "arbitrum_localnet", actionIds: [1], feePaid: 21_000n * 10n ** 9n },
        { id: 11, chain: "bitcoin_regtest", actionIds: [2], feePaid: 141n },
      ],
      decimalsOf,
      feeAssetOf,
    );
    expect(legs).toEqual([
      {
        kind: "destination_given",
        asset: "arbitrum_localnet:wbtc",
        decimals: 8,
        amount: -997_000n,
        attemptId: null,
      },
      {
        kind: "source_received",
        asset: "bitcoin_regtest:btc",
        decimals: 8,
        amount: 1_000_000n,
        attemptId: null,
      },
      {
        kind: "network_fee",
        asset: "arbitrum_localnet:eth",
        decimals: 18,
        amount: -21_000_000_000_000n,
        attemptId: 10,
      },
      { kind: "network_fee", asset: "bitcoin_regtest:btc", decimals: 8, amount: -141n, attemptId: 11 },
    ]);
  });

  it("gives back a refunded fill, and counts a replaced or reverted attempt only when it paid", () => {
    const refund: SettlementAction = {
      id: 3,
      kind: "refund",
      confirmed: true,
      asset: fill.asset,
      amount: fill.amount,
    };
    const legs = settlementLegs(
      [fill, refund],
      [
        { id: 20, chain: "arbitrum_localnet", actionIds: [1], feePaid: 100n },
        { id: 21, chain: "arbitrum_localnet", actionIds: [3], feePaid: null },
        { id: 22, chain: "arbitrum_localnet", actionIds: [3], feePaid: 90n },
      ],
      decimalsOf,
      feeAssetOf,
    );
    expect(legs.map((l) => [l.kind, l.amount])).toEqual([
      ["destination_given", -997_000n],
      ["destination_refunded", 997_000n],
      ["network_fee", -100n],
      ["network_fee", -90n],
    ]);
  });

  it("leaves out actions that did not move money: unconfirmed ones and instant refunds", () => {
    const legs = settlementLegs(
      [
        { ...fill, confirmed: false },
        { id: 4, kind: "instant_refund", confirmed: true, asset: "bitcoin_regtest:btc", amount: 1_000_000n },
      ],
      [],
      decimalsOf,
      feeAssetOf,
    );
    expect(legs).toEqual([]);
  });
});

describe("feeShare", () => {
  it("splits a batch's fee over its actions so the shares add up to the fee exactly", () => {
    const batch = { id: 30, chain: "bitcoin_regtest", actionIds: [7, 5, 9], feePaid: 1_000n };
    const shares = [5, 7, 9].map((id) => feeShare(batch, new Set([id])));
    expect(shares).toEqual([334n, 333n, 333n]);
    expect(shares.reduce((a, b) => a + b)).toBe(1_000n);
    expect(feeShare(batch, new Set([5, 9]))).toBe(667n);
    expect(feeShare({ ...batch, feePaid: null }, new Set([5]))).toBe(0n);
  });
});

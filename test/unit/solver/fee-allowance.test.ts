import { describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import type { AssetConfig } from "../../../src/config/types.js";
import { urgentRedeemAllowance } from "../../../src/solver/fee-allowance.js";

const assets: AssetConfig[] = [
  {
    id: "bitcoin_regtest:btc",
    chain: "bitcoin_regtest",
    symbol: "BTC",
    decimals: 8,
    tokenAddress: "primary",
    htlcAddress: "",
  },
  {
    id: "eth:eth",
    chain: "eth",
    symbol: "ETH",
    decimals: 18,
    tokenAddress: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    htlcAddress: "0x01",
  },
  {
    id: "eth:usdc",
    chain: "eth",
    symbol: "USDC",
    decimals: 6,
    tokenAddress: "0x00000000000000000000000000000000000000aa",
    htlcAddress: "0x02",
  },
];
const now = 1_000_000;
const policy = { nowMs: now, urgencyMarginMs: 600_000, urgentRedeemFeeBps: 100, assets };

function redeem(asset: string, amount: bigint, mustConfirmByMs?: number) {
  const request = {
    kind: "redeem",
    orderId: "o",
    params: { chain: asset.split(":")[0], asset, amount },
    ...(mustConfirmByMs === undefined ? {} : { mustConfirmByMs }),
  } as ActionRequest;
  return { kind: request.kind, request };
}

describe("urgentRedeemAllowance", () => {
  it("lets a redeem near its deadline pay up to the configured share of the coin it redeems", () => {
    const allowance = urgentRedeemAllowance(
      [
        redeem("bitcoin_regtest:btc", 1_000_000n, now + 60_000),
        redeem("bitcoin_regtest:btc", 500_000n, now + 1),
      ],
      policy,
    );
    expect(allowance?.maxFee).toBe(15_000n);
    expect(allowance?.reason).toContain("100 bps");
  });

  it("gives nothing to a redeem with time left, to a token, to a fill, or when the share is 0", () => {
    expect(urgentRedeemAllowance([redeem("eth:eth", 10n ** 18n, now + 900_000)], policy)).toBeUndefined();
    expect(urgentRedeemAllowance([redeem("eth:eth", 10n ** 18n)], policy)).toBeUndefined();
    expect(urgentRedeemAllowance([redeem("eth:usdc", 10n ** 9n, now + 1)], policy)).toBeUndefined();
    const fill = { ...redeem("eth:eth", 10n ** 18n, now + 1), kind: "fill" as const };
    expect(urgentRedeemAllowance([fill], policy)).toBeUndefined();
    expect(
      urgentRedeemAllowance([redeem("eth:eth", 10n ** 18n, now + 1)], { ...policy, urgentRedeemFeeBps: 0 }),
    ).toBeUndefined();
    expect(urgentRedeemAllowance([redeem("eth:eth", 10n ** 18n, now + 1)], policy)?.maxFee).toBe(10n ** 16n);
  });
});

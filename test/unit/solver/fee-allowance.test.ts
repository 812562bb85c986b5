import { describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import type { AssetConfig } from "../../../src/config/types.js";
import { indexAssets } from "../../../src/pricing/assets.js";
import { PriceUnavailableError, type PriceSource } from "../../../src/pricing/price-source.js";
import { urgentRedeemAllowance, type UrgentRedeemPolicy } from "../../../src/solver/fee-allowance.js";
import { CapturedLog } from "../../support/localnet.js";

function asset(id: string, decimals: number, tokenAddress: string): AssetConfig {
  const [chain = "", symbol = ""] = id.split(":");
  return { id, chain, symbol, decimals, tokenAddress, htlcAddress: "" };
}

const BTC = asset("bitcoin_regtest:btc", 8, "primary");
const ETH = asset("eth:eth", 18, "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE");
const USDC = asset("eth:usdc", 6, "0x00000000000000000000000000000000000000aa");
const SOL = asset("solana:sol", 9, "native");
const SPL_USDC = asset("solana:usdc", 6, "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
/** A chain whose coin is spelled neither `native` nor `primary`: only its family knows which it is. */
const STRK = asset("starknet:strk", 18, "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d");
const STARK_USDC = asset(
  "starknet:usdc",
  6,
  "0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8",
);

/** What each chain's family says its fee coin is. */
const FEE_ASSETS: Record<string, string> = {
  bitcoin_regtest: BTC.id,
  eth: ETH.id,
  solana: SOL.id,
  starknet: STRK.id,
};

const now = 1_000_000;

function policy(
  prices: Record<string, string | Error>,
  overrides: Partial<UrgentRedeemPolicy> = {},
): { policy: UrgentRedeemPolicy; log: CapturedLog } {
  const log = new CapturedLog("warn");
  const source: PriceSource = {
    usdPrice: (id) => {
      const price = prices[id];
      if (price === undefined) return Promise.reject(new PriceUnavailableError(id, "missing"));
      return price instanceof Error ? Promise.reject(price) : Promise.resolve(price);
    },
  };
  return {
    log,
    policy: {
      nowMs: now,
      urgencyMarginMs: 600_000,
      urgentRedeemFeeBps: 100,
      assets: indexAssets([{ assets: [BTC, ETH, USDC, SOL, SPL_USDC, STRK, STARK_USDC] }]),
      feeAssetOf: (chain) => FEE_ASSETS[chain] ?? null,
      prices: source,
      logger: log.logger,
      ...overrides,
    },
  };
}

function redeem(assetId: string, amount: bigint, mustConfirmByMs?: number) {
  const request = {
    kind: "redeem",
    orderId: "o",
    params: { chain: assetId.split(":")[0], asset: assetId, amount },
    ...(mustConfirmByMs === undefined ? {} : { mustConfirmByMs }),
  } as ActionRequest;
  return { kind: request.kind, request };
}

describe("urgentRedeemAllowance", () => {
  it("lets a redeem near its deadline pay up to the configured share of the coin it redeems", async () => {
    // No price is needed where the redeemed asset is the fee coin itself.
    const { policy: p } = policy({});
    const allowance = await urgentRedeemAllowance(
      [redeem(BTC.id, 1_000_000n, now + 60_000), redeem(BTC.id, 500_000n, now + 1)],
      p,
    );
    expect(allowance?.maxFee).toBe(15_000n);
    expect(allowance?.reason).toContain("100 bps");
  });

  it("converts a token's redeemed value to the chain's fee coin at the prices of now", async () => {
    const { policy: p } = policy({ [USDC.id]: "1", [ETH.id]: "2500", [SPL_USDC.id]: "1", [SOL.id]: "150" });
    // 5000 USDC is 2 ETH; 1% of it, 0.02 ETH.
    const erc20 = await urgentRedeemAllowance([redeem(USDC.id, 5_000_000_000n, now + 1)], p);
    expect(erc20?.maxFee).toBe(2n * 10n ** 16n);
    expect(erc20?.reason).toContain(`of the ${2n * 10n ** 18n} smallest units of ${ETH.id}`);
    // 300 USDC on Solana is 2 SOL; 1% of it, 0.02 SOL in lamports.
    const spl = await urgentRedeemAllowance([redeem(SPL_USDC.id, 300_000_000n, now + 1)], p);
    expect(spl?.maxFee).toBe(20_000_000n);
  });

  it("asks the chain which asset is its coin, however the coin is spelled", async () => {
    const { policy: p } = policy({ [STARK_USDC.id]: "1", [STRK.id]: "0.5" });
    expect((await urgentRedeemAllowance([redeem(STRK.id, 10n ** 18n, now + 1)], p))?.maxFee).toBe(10n ** 16n);
    // 100 USDC is 200 STRK; 1% of it, 2 STRK.
    const token = await urgentRedeemAllowance([redeem(STARK_USDC.id, 100_000_000n, now + 1)], p);
    expect(token?.maxFee).toBe(2n * 10n ** 18n);
  });

  it("gives no allowance beyond the ceiling for a value it cannot price, and says why", async () => {
    const stale = new PriceUnavailableError(ETH.id, "its sources are 7200 s old", "price_stale");
    const { policy: p, log } = policy({ [USDC.id]: "1", [ETH.id]: stale });
    expect(await urgentRedeemAllowance([redeem(USDC.id, 5_000_000_000n, now + 1)], p)).toBeUndefined();
    expect(log.find((l) => l.reason === "price_stale")).toMatchObject({
      msg: "urgent redeem gets no fee allowance for this value: no usable price",
      asset: ETH.id,
    });
    // A missing price, and a chain whose coin is not a configured asset, are no allowance either.
    const missing = policy({ [ETH.id]: "2500" });
    expect(
      await urgentRedeemAllowance([redeem(USDC.id, 5_000_000_000n, now + 1)], missing.policy),
    ).toBeUndefined();
    expect(missing.log.find((l) => l.reason === "price_unavailable")?.asset).toBe(USDC.id);
    const noCoin = policy({ [USDC.id]: "1" }, { feeAssetOf: () => null });
    expect(await urgentRedeemAllowance([redeem(USDC.id, 10n ** 9n, now + 1)], noCoin.policy)).toBeUndefined();
    expect(noCoin.log.find((l) => /fee coin is not a configured asset/.test(String(l.msg)))).toBeDefined();
  });

  it("gives nothing to a redeem with time left, to a fill, or when the share is 0", async () => {
    const { policy: p } = policy({ [USDC.id]: "1", [ETH.id]: "2500" });
    expect(await urgentRedeemAllowance([redeem(ETH.id, 10n ** 18n, now + 900_000)], p)).toBeUndefined();
    expect(await urgentRedeemAllowance([redeem(ETH.id, 10n ** 18n)], p)).toBeUndefined();
    const fill = { ...redeem(ETH.id, 10n ** 18n, now + 1), kind: "fill" as const };
    expect(await urgentRedeemAllowance([fill], p)).toBeUndefined();
    const off = { ...p, urgentRedeemFeeBps: 0 };
    expect(await urgentRedeemAllowance([redeem(ETH.id, 10n ** 18n, now + 1)], off)).toBeUndefined();
    expect((await urgentRedeemAllowance([redeem(ETH.id, 10n ** 18n, now + 1)], p))?.maxFee).toBe(10n ** 16n);
  });
});

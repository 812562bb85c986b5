/**
 * An order's network charge from the fee facts of the moment (facts.ts), judged when asked: an estimate
 * that is missing or older than `maxAgeMs` refuses, naming the chain and why, and never prices at zero.
 * The main thread reads the fee book's facts, the quote thread its snapshot's; the code is the same.
 */
import type { AssetIndex, FeeCoins } from "../assets.js";
import { parseDecimal } from "../decimal.js";
import { PriceUnavailableError, type PriceSource } from "../price-source.js";
import type { PricedAsset } from "../conversion.js";
import { refuse, type QuoteRefusal } from "../refusal.js";
import { LONE_ACTION } from "./batch-size.js";
import { networkCharge, type NetworkCharge, type PricedActionFee } from "./charge.js";
import { batchKey, type FeeActionKind, type NetworkFeeFacts, type NetworkFeeSettings } from "./facts.js";

export interface NetworkFeeParts {
  settings: NetworkFeeSettings;
  facts: () => NetworkFeeFacts;
  feeCoins: FeeCoins;
  assets: AssetIndex;
  /** Prices of the chains' coins: live where listed, else fixed. */
  prices: PriceSource;
  now: () => number;
}

export interface OrderChains {
  sourceChain: string;
  destinationChain: string;
  destination: PricedAsset;
}

export class NetworkFees {
  constructor(private readonly parts: NetworkFeeParts) {}

  get settings(): NetworkFeeSettings {
    return this.parts.settings;
  }

  /** What an order from `sourceChain` to `destination` is charged now, or why it cannot be priced. */
  async chargeFor(order: OrderChains): Promise<NetworkCharge | QuoteRefusal> {
    const facts = this.parts.facts();
    try {
      const [fill, redeem, refund] = await Promise.all([
        this.actionFee(facts, order.destinationChain, "fill"),
        this.actionFee(facts, order.sourceChain, "redeem"),
        this.actionFee(facts, order.destinationChain, "refund"),
      ]);
      return networkCharge({
        fill,
        redeem,
        refund,
        refundProbabilityBps: this.parts.settings.refundProbabilityBps,
        minProfitUsdCents: this.parts.settings.minProfitUsdCents,
        destination: order.destination,
      });
    } catch (error) {
      if (error instanceof NetworkFeeUnavailableError)
        return refuse("network_fee_unavailable", error.message);
      if (error instanceof PriceUnavailableError) return refuse(error.reason, error.message);
      throw error;
    }
  }

  /** One action's estimate, batch size and coin price on `chain`; throws when it cannot be priced. */
  private async actionFee(
    facts: NetworkFeeFacts,
    chain: string,
    kind: FeeActionKind,
  ): Promise<PricedActionFee> {
    const reading = facts.readings.get(chain);
    const last = reading?.last ?? null;
    if (last === null) {
      const why = reading?.error ?? "none read yet";
      throw new NetworkFeeUnavailableError(`no network fee estimate of chain ${chain}: ${why}`);
    }
    const ageMs = this.parts.now() - last.atMs;
    if (ageMs > this.parts.settings.maxAgeMs) {
      const why =
        reading?.error === null || reading?.error === undefined ? "" : `; last read: ${reading.error}`;
      throw new NetworkFeeUnavailableError(
        `the network fee estimate of chain ${chain} is ${ageMs} ms old, more than ${this.parts.settings.maxAgeMs} ms${why}`,
      );
    }
    const estimate = last.fees[kind];
    const batch = facts.batches.get(batchKey(chain, kind)) ?? LONE_ACTION;
    // Nothing to pay needs no price: zero in any coin is zero.
    if (estimate.perTransaction === 0n && estimate.perAction === 0n) {
      return {
        estimate,
        batch,
        coin: { id: `${chain}:coin`, decimals: 0, usdPrice: { num: 0n, den: 1n }, usdPriceText: "0" },
      };
    }
    const coinId = this.parts.feeCoins[chain];
    const coin = coinId === undefined ? undefined : this.parts.assets.get(coinId);
    if (coinId === undefined || coin === undefined) {
      throw new NetworkFeeUnavailableError(
        `chain ${chain} lists no asset for its coin, so its fees have no price`,
      );
    }
    const usdPriceText = await this.parts.prices.usdPrice(coinId);
    const usdPrice = parseDecimal(usdPriceText, `USD price of ${coinId}`);
    // A coin worth nothing would make every fee free.
    if (usdPrice.num === 0n) throw new PriceUnavailableError(coinId, "its price is zero");
    return {
      estimate,
      batch,
      coin: {
        id: coinId,
        decimals: coin.decimals,
        usdPrice,
        usdPriceText,
      },
    };
  }
}

export class NetworkFeeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NetworkFeeUnavailableError";
  }
}

/** USD cents in destination smallest units, rounded down. */
export function centsInDestination(cents: bigint, destination: PricedAsset): bigint {
  const { decimals, usdPrice } = destination;
  return (cents * 10n ** BigInt(decimals) * usdPrice.den) / (100n * usdPrice.num);
}

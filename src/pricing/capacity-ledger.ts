/**
 * Capacity, and the inventory curve's price, at the moment fills are claimed. The quote check before it
 * ran per order, each against the same balances, so many fills decided in one round could together
 * promise inventory and exposure that each passed alone, each priced at an inventory the others were
 * about to take. The ledger reads once, fresh, then takes fills one at a time, each priced at the
 * inventory the ones before it left and judged against what they took. Its caller holds a lock around opening it and claiming what it admits, under
 * which no one else claims fills of its assets; fills of other assets may be claimed meanwhile (another
 * chain's), so the exposure is read (`readExposure`) just before taking fills, under the lock of every
 * claim.
 *
 * Reads run in this order: fills claimed but not signed (journal), then balances (each executor reads
 * its live attempts from the journal before the chain), then value in flight. A fill moves from claimed
 * to a live attempt to mined in that order too, so every step of it is seen by exactly one read.
 */
import type { Limits } from "../config/types.js";
import { gasAssetOf, type AssetIndex, type FeeCoins } from "./assets.js";
import { judgeCapacity } from "./capacity.js";
import { usdCentsUp } from "./conversion.js";
import type { BalanceSource } from "./inventory.js";
import type { OrderAmounts } from "./order-check.js";
import { PriceUnavailableError, readPrice, type PriceSource } from "./price-source.js";
import { refuse, type QuoteRefusal } from "./refusal.js";

export interface CapacityLedgerDeps {
  /** Balances read from the chains now (no cache), net of the journal's live attempts. */
  balances: BalanceSource;
  /** Fills claimed but not signed, per destination asset. */
  plannedFills: () => ReadonlyMap<string, bigint>;
  /** Every fill of an open order not refunded, per destination asset: the exposure. */
  inFlight: () => ReadonlyMap<string, bigint>;
  floors: Readonly<Record<string, bigint>>;
  prices: PriceSource;
  assets: AssetIndex;
  /** Each chain's fee coin. */
  feeCoins: FeeCoins;
  limits: Limits;
  /**
   * The price rule (`checkOrderPrice`) with the destination's inventory curve read at `holding`: the
   * inventory this fill finds, before it and after every fill claimed before it. Undefined when it passes.
   */
  priceAt: (order: OrderAmounts, holding: bigint) => Promise<QuoteRefusal | undefined>;
}

/**
 * A fill to admit: what it pays (`order.toAsset`, `order.toAmount`) for what it redeems; `alreadyPlanned`
 * is this order's own claimed-but-unsigned fill, counted in the reads.
 */
export interface LedgerEntry {
  order: OrderAmounts;
  alreadyPlanned: bigint;
}

export class CapacityLedger {
  private constructor(
    private readonly deps: CapacityLedgerDeps,
    /** Per asset: balance − planned − floor, lowered by every fill admitted since. */
    private readonly available: Map<string, bigint | Error>,
    private inFlightCents: bigint | Error,
  ) {}

  /**
   * Reads the balances the given destination assets (and their chains' fee coins) need; the value in
   * flight is read by `readExposure`, which the caller makes just before taking fills (until then
   * every fill is refused).
   */
  static async open(deps: CapacityLedgerDeps, assetIds: readonly string[]): Promise<CapacityLedger> {
    const planned = deps.plannedFills();
    const wanted = new Set<string>();
    for (const id of assetIds) {
      wanted.add(id);
      const gas = gasAssetOf(deps.feeCoins, deps.assets.get(id)?.chain ?? "");
      if (gas !== null) wanted.add(gas);
    }
    const available = new Map<string, bigint | Error>();
    await Promise.all(
      [...wanted].map(async (id) => {
        try {
          const balance = await deps.balances.balance(id);
          available.set(id, balance - (planned.get(id) ?? 0n) - (deps.floors[id] ?? 0n));
        } catch (error) {
          available.set(id, error instanceof Error ? error : new Error(String(error)));
        }
      }),
    );
    return new CapacityLedger(deps, available, new Error("the value in flight was not read yet"));
  }

  /** Reads the value in flight again: every fill claimed until now counts, whatever its asset. */
  async readExposure(): Promise<void> {
    try {
      this.inFlightCents = await inFlightCents(this.deps);
    } catch (error) {
      this.inFlightCents = error instanceof Error ? error : new Error(String(error));
    }
  }

  /**
   * Admits one fill if the capacity rule holds after every fill admitted before it and its price holds at
   * the inventory they left; records it if so.
   */
  async take(entry: LedgerEntry): Promise<QuoteRefusal | undefined> {
    const assetId = entry.order.toAsset;
    const amount = entry.order.toAmount;
    const asset = this.deps.assets.get(assetId);
    if (asset === undefined) return refuse("unknown_asset", `asset ${assetId} has no asset config`);
    const gasId = gasAssetOf(this.deps.feeCoins, asset.chain);
    const available = this.available.get(assetId);
    const gas = gasId === null || gasId === assetId ? null : this.available.get(gasId);
    const unreadable = [available, gas, this.inFlightCents].find((v) => v instanceof Error);
    if (unreadable instanceof Error) {
      if (unreadable instanceof PriceUnavailableError) return refuse(unreadable.reason, unreadable.message);
      return refuse("inventory_unavailable", `cannot read inventory: ${unreadable.message}`);
    }
    let priced;
    try {
      priced = { ...asset, usdPrice: await readPrice(this.deps.prices, asset.id) };
    } catch (error) {
      if (error instanceof PriceUnavailableError) return refuse(error.reason, error.message);
      throw error;
    }
    const figures = {
      available: (available as bigint) + entry.alreadyPlanned,
      gasAvailable: gas === null || gas === undefined ? null : (gas as bigint),
      inFlightCents: (this.inFlightCents as bigint) - usdCentsUp(entry.alreadyPlanned, priced),
    };
    // Capacity first, as before a plan's fill (order-check.ts): a fill that cannot be carried waits.
    const refusal = judgeCapacity(figures, this.deps.limits, priced, amount);
    if (refusal !== undefined) return refusal;
    // The floor is the operator's reserve, not a promise: the curve sees it as held, as quotes do.
    const holding = figures.available + (this.deps.floors[assetId] ?? 0n);
    const priceRefusal = await this.deps.priceAt(entry.order, holding);
    if (priceRefusal !== undefined) return priceRefusal;
    this.available.set(assetId, figures.available - amount);
    this.inFlightCents = figures.inFlightCents + usdCentsUp(amount, priced);
    return undefined;
  }
}

async function inFlightCents(deps: CapacityLedgerDeps): Promise<bigint> {
  let total = 0n;
  for (const [id, amount] of deps.inFlight()) {
    const asset = deps.assets.get(id);
    if (asset === undefined || amount <= 0n) continue;
    total += usdCentsUp(amount, { decimals: asset.decimals, usdPrice: await readPrice(deps.prices, id) });
  }
  return total;
}

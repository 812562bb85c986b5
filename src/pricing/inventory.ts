/**
 * What the solver can still promise: wallet balances (cached briefly, since quotes arrive in bursts and
 * each balance is a chain read; a quote is answered from the last balance while a fresh one is read)
 * minus amounts already committed to fills minus the operator's floor.
 */
import type { AssetIndex } from "./assets.js";
import { usdCentsUp } from "./conversion.js";
import { readPrice, type PriceSource } from "./price-source.js";

/** The solver's spendable balance of an asset in smallest units; each chain executor provides one. */
export interface BalanceSource {
  balance(assetId: string): Promise<bigint>;
}

/** Amount of an asset the journal holds in fills not yet redeemed or refunded, smallest units. */
export type CommittedAmount = (assetId: string) => bigint | Promise<bigint>;

/** The part of inventory that quoting needs; `Inventory` implements it. */
export interface CapacityView {
  available(assetId: string): Promise<bigint>;
  /** What the solver holds of the asset and has not promised yet: balance − committed (floor not taken off). */
  holding(assetId: string): Promise<bigint>;
  inFlightUsdCents(): Promise<bigint>;
}

export interface InventoryOptions {
  balances: BalanceSource;
  /** Fills decided but not yet out of the wallet: still in the balance, no longer ours to promise. */
  committed: CommittedAmount;
  /** Every fill of an open order, locked or about to be: the exposure limit counts these. Defaults to `committed`. */
  inFlight?: CommittedAmount;
  /** Per destination asset id; an asset without an entry has floor 0. */
  floors: Readonly<Record<string, bigint>>;
  prices: PriceSource;
  /** Every asset the solver may hold; in-flight value sums over these. */
  assets: AssetIndex;
  /** How long a balance read is reused. 0 reads the chain every time. */
  cacheMs: number;
  now?: () => number;
}

export interface InventorySnapshot {
  balance: bigint;
  committed: bigint;
  floor: bigint;
  /** balance − committed − floor; negative when the floor is already breached. */
  available: bigint;
}

interface CachedBalance {
  /** The last balance read, and when that read started; null until one succeeded. */
  value: bigint | null;
  readAt: number;
  /** The read under way, shared by every caller that must wait for it. */
  pending: Promise<bigint> | null;
  /** The last read's error and when it came back; cleared by a read that succeeds. */
  failure: { error: unknown; atMs: number } | null;
}

/**
 * A balance older than `cacheMs` still answers at once while a read refreshes it (a quote never waits on
 * the chain for it), up to this many times `cacheMs`; older than that, callers wait for the read.
 */
const STALE_ANSWER_FACTOR = 12;

/**
 * After a failed read, no new read of that asset starts for this long (at most `cacheMs`): callers get the
 * last balance while it is usable, or else the read's error. Without the pause, every quote of a flood
 * arriving while the node fails would start the next read as soon as the last one failed.
 */
const FAILED_READ_PAUSE_MS = 1_000;

export class Inventory implements CapacityView {
  private readonly cache = new Map<string, CachedBalance>();
  private readonly now: () => number;
  private options: InventoryOptions;

  constructor(options: InventoryOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  /** New floors and prices after a configuration reload; cached balances stay valid. */
  update(changes: Pick<InventoryOptions, "floors" | "prices">): void {
    this.options = { ...this.options, ...changes };
  }

  /**
   * Balance, reusing a read younger than `cacheMs`; an older one answers at once while a fresh read runs
   * (see STALE_ANSWER_FACTOR). Concurrent callers share one read; a failed read is retried only after a
   * pause (FAILED_READ_PAUSE_MS), so the chain is read at most once per pause however many callers ask.
   */
  balance(assetId: string): Promise<bigint> {
    const now = this.now();
    const cached = this.cache.get(assetId);
    const failure = cached?.failure ?? null;
    const pausing =
      failure !== null && now - failure.atMs < Math.min(this.options.cacheMs, FAILED_READ_PAUSE_MS);
    if (cached !== undefined && cached.value !== null) {
      const age = now - cached.readAt;
      if (age < this.options.cacheMs) return Promise.resolve(cached.value);
      if (age < this.options.cacheMs * STALE_ANSWER_FACTOR) {
        if (!pausing) void this.refresh(assetId, now).catch(() => undefined);
        return Promise.resolve(cached.value);
      }
    }
    if (pausing && cached?.pending === null) return Promise.reject(failure.error);
    return this.refresh(assetId, now);
  }

  /** One read of the chain at a time per asset; its result replaces the cached balance. */
  private refresh(assetId: string, now: number): Promise<bigint> {
    const entry = this.cache.get(assetId) ?? { value: null, readAt: now, pending: null, failure: null };
    if (entry.pending !== null) return entry.pending;
    this.cache.set(assetId, entry);
    const pending = this.options.balances.balance(assetId);
    entry.pending = pending;
    pending.then(
      (value) => {
        entry.pending = null;
        if (this.cache.get(assetId) !== entry) return;
        entry.value = value;
        entry.readAt = now;
        entry.failure = null;
      },
      (error: unknown) => {
        entry.pending = null;
        entry.failure = { error, atMs: this.now() };
      },
    );
    return pending;
  }

  /** Forgets cached balances (one asset, or all), e.g. right after the solver spends from a wallet. */
  invalidate(assetId?: string): void {
    if (assetId === undefined) this.cache.clear();
    else this.cache.delete(assetId);
  }

  floor(assetId: string): bigint {
    return this.options.floors[assetId] ?? 0n;
  }

  async snapshot(assetId: string): Promise<InventorySnapshot> {
    const [balance, committed] = await Promise.all([
      this.balance(assetId),
      Promise.resolve(this.options.committed(assetId)),
    ]);
    const floor = this.floor(assetId);
    return { balance, committed, floor, available: balance - committed - floor };
  }

  async available(assetId: string): Promise<bigint> {
    return (await this.snapshot(assetId)).available;
  }

  async holding(assetId: string): Promise<bigint> {
    const { balance, committed } = await this.snapshot(assetId);
    return balance - committed;
  }

  /** USD cents (rounded up) of everything committed across all assets, at current prices. */
  async inFlightUsdCents(): Promise<bigint> {
    let total = 0n;
    for (const asset of this.options.assets.values()) {
      const committed = await (this.options.inFlight ?? this.options.committed)(asset.id);
      if (committed <= 0n) continue;
      const usdPrice = await readPrice(this.options.prices, asset.id);
      total += usdCentsUp(committed, { decimals: asset.decimals, usdPrice });
    }
    return total;
  }
}

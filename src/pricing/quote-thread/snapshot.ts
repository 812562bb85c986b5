/**
 * What the quote thread answers from: a copy of everything a quote reads, taken on the main thread and
 * posted to the thread on a short interval. Plain data only (structured clone carries bigints exactly):
 * the pricing settings in force, what each live price source last said (the thread judges staleness,
 * disagreement and pegs at the moment it quotes, with the same code the main thread uses), and per asset
 * the balance as the executors report it and the journal's committed and in-flight amounts.
 */
import type { ReadingsByAsset } from "../live/live-prices.js";
import type { BalanceSource, CommittedAmount } from "../inventory.js";
import type { NetworkFeeFacts } from "../network-fees/facts.js";
import type { QuoteSettings } from "../quote-settings.js";

/** A balance as read, or why it could not be. */
export type BalanceFact = { ok: true; amount: bigint } | { ok: false; error: string };

export interface CapacityFacts {
  balances: ReadonlyMap<string, BalanceFact>;
  /** Fills decided but not yet out of the wallet, per asset. */
  committed: ReadonlyMap<string, bigint>;
  /** Every fill of an open order, per asset: the exposure. */
  inFlight: ReadonlyMap<string, bigint>;
}

export interface QuoteSnapshot {
  /** Wall clock, unix ms, when the main thread started taking it: its facts are no older. */
  takenAtMs: number;
  settings: QuoteSettings;
  readings: ReadingsByAsset;
  capacity: CapacityFacts;
  /** Each chain's last network fee estimate and the recent batch sizes; judged for age when quoting. */
  networkFees: NetworkFeeFacts;
}

export interface SnapshotParts {
  settings: QuoteSettings;
  readings: ReadingsByAsset;
  networkFees: NetworkFeeFacts;
  /** The cached balances quotes have always used (Inventory): a fresh read only when the cache is old. */
  balances: BalanceSource;
  committed: CommittedAmount;
  inFlight: CommittedAmount;
  /** A balance read still under way after this long counts as failed in this snapshot; it goes on. */
  balanceWaitMs: number;
  now: () => number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function balanceFact(source: BalanceSource, assetId: string, waitMs: number): Promise<BalanceFact> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<BalanceFact>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: `the balance read took more than ${waitMs} ms` }),
      waitMs,
    );
  });
  const read = source.balance(assetId).then(
    (amount): BalanceFact => ({ ok: true, amount }),
    (error: unknown): BalanceFact => ({ ok: false, error: errorText(error) }),
  );
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function perAsset<T>(
  ids: readonly string[],
  read: (id: string) => T | Promise<T>,
): Promise<Map<string, T>> {
  return new Map(await Promise.all(ids.map(async (id) => [id, await read(id)] as const)));
}

export async function takeQuoteSnapshot(parts: SnapshotParts): Promise<QuoteSnapshot> {
  const takenAtMs = parts.now();
  const ids = parts.settings.assets.map((asset) => asset.id);
  const [balances, committed, inFlight] = await Promise.all([
    perAsset(ids, (id) => balanceFact(parts.balances, id, parts.balanceWaitMs)),
    perAsset(ids, parts.committed),
    perAsset(ids, parts.inFlight),
  ]);
  return {
    takenAtMs,
    settings: parts.settings,
    readings: parts.readings,
    capacity: { balances, committed, inFlight },
    networkFees: parts.networkFees,
  };
}

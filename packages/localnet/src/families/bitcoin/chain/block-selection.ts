import type { Mempool, MempoolEntry } from "./mempool.js";
import { REGTEST } from "./params.js";

/** Room left for the coinbase, as Bitcoin Core reserves it. */
const COINBASE_RESERVED_WEIGHT = 4000;

interface Package {
  entries: MempoolEntry[];
  fee: bigint;
  vsize: number;
  weight: number;
}

function packageOf(mempool: Mempool, entry: MempoolEntry, selected: Set<string>): Package {
  const ancestors = [...mempool.ancestors(entry.tx)]
    .filter((txid) => !selected.has(txid))
    .map((txid) => mempool.get(txid))
    .filter((e): e is MempoolEntry => e !== undefined);
  const entries = [...ancestors, entry].sort((a, b) => a.sequence - b.sequence);
  return {
    entries,
    fee: entries.reduce((sum, e) => sum + e.fee, 0n),
    vsize: entries.reduce((sum, e) => sum + e.vsize, 0),
    weight: entries.reduce((sum, e) => sum + e.weight, 0),
  };
}

/** fee/vsize of a package, compared without division: a.fee/a.vsize > b.fee/b.vsize. */
function higherRate(a: Package, b: Package): boolean {
  return a.fee * BigInt(b.vsize) > b.fee * BigInt(a.vsize);
}

/**
 * Picks mempool transactions for the next block by ancestor-package fee rate (so a child can pay for
 * its parent), skipping packages below `minFeeRateSatKvB` (bitcoind's -blockmintxfee).
 */
export function selectTransactions(mempool: Mempool, minFeeRateSatKvB: bigint): MempoolEntry[] {
  const selected = new Set<string>();
  const chosen: MempoolEntry[] = [];
  let weightLeft = REGTEST.maxBlockWeight - COINBASE_RESERVED_WEIGHT;
  const skipped = new Set<string>();
  for (;;) {
    let best: Package | null = null;
    for (const entry of mempool.entries()) {
      if (selected.has(entry.txid) || skipped.has(entry.txid)) continue;
      const pkg = packageOf(mempool, entry, selected);
      if (pkg.fee * 1000n < minFeeRateSatKvB * BigInt(pkg.vsize)) continue;
      if (best === null || higherRate(pkg, best)) best = pkg;
    }
    if (best === null) break;
    if (best.weight > weightLeft) {
      for (const e of best.entries) skipped.add(e.txid);
      continue;
    }
    weightLeft -= best.weight;
    for (const e of best.entries) {
      selected.add(e.txid);
      chosen.push(e);
    }
  }
  return chosen;
}

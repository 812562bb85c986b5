/**
 * Follows a bitcoind chain for a set of watched addresses: the outputs paying them and the inputs
 * spending those outputs, confirmed (from `getblock` verbosity 2) and unconfirmed (from the mempool).
 * Heights are tracked with their block hashes, so a reorg is noticed (a stored hash no longer matches)
 * and everything above the fork point is rolled back and read again. An address added later is
 * backfilled from `lookbackBlocks` below the tip, reading again only the blocks whose kept filter says
 * they may pay it or spend its outputs. It knows nothing about HTLCs or the solver, so the local service
 * can follow deposits with it too.
 */
import { address as btcAddress, type Network } from "bitcoinjs-lib";
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { AddressActivity, FundingOutput, OutputSpend } from "./backend.js";
import { BlockFilter, filterKey, type FilterKey } from "./block-filter.js";
import { bytesToHex } from "./bytes.js";
import { moment } from "../../util/moment.js";
import { PhaseTimer } from "../../util/phase-timer.js";
import { settledLater } from "../../util/settled-later.js";
import type { BitcoinRpcClient, RpcBlockWithTransactions, RpcTransaction } from "./rpc.js";

export type IndexerRpc = Pick<
  BitcoinRpcClient,
  "getBlockCount" | "getBlockHash" | "getBlock" | "getRawMempool" | "getRawTransactionVerbose"
>;

export interface IndexerOptions {
  rpc: IndexerRpc;
  network: Network;
  /** How far below the tip a newly watched address is searched; default 1008 (one week). */
  lookbackBlocks?: number;
  logger?: Logger;
}

interface StoredOutput {
  address: string;
  txid: string;
  vout: number;
  value: bigint;
  height: number | null;
}

/** Block reads a sync keeps under way at once while it walks new blocks. */
const BLOCKS_IN_FLIGHT = 8;

/**
 * New mempool transactions read at once. One after another, the ten or so of a busy second took the
 * chain watch's sync of a new block 0.4 s under load, and every order that block woke waited for it.
 */
const MEMPOOL_READS_IN_FLIGHT = 16;

interface BlockRead {
  height: number;
  hash: string;
  block: RpcBlockWithTransactions;
}

/** A sync longer than this is logged with the time each phase took. */
const SLOW_SYNC_MS = 1_000;

const outpointKey = (txid: string, vout: number): string => `${txid}:${vout}`;

export class BitcoinIndexer {
  readonly #rpc: IndexerRpc;
  readonly #network: Network;
  readonly #lookback: number;
  readonly #log: Logger | undefined;
  /** Output script hex → address, for addresses already followed block by block. */
  readonly #watched = new Map<string, string>();
  /** Output script hex by address, for every address asked about. */
  readonly #scripts = new Map<string, string>();
  /** Added but not yet backfilled. */
  readonly #pending = new Map<string, string>();
  /** Block hash of every height followed so far (from `#baseHeight`). */
  readonly #hashes = new Map<number, string>();
  /** What each followed block within the look-back may hold; set and dropped with its hash. */
  readonly #filters = new Map<number, BlockFilter>();
  /**
   * Per followed height within the look-back, the watched addresses its block paid or spent from: what
   * a new block changed, so a follower wakes only the orders at those addresses.
   */
  readonly #touched = new Map<number, Set<string>>();
  readonly #outputs = new Map<string, StoredOutput>();
  readonly #spends = new Map<string, OutputSpend>();
  /** The mempool's view, rebuilt on every sync: outputs and spends that are not in a block yet. */
  #mempoolOutputs = new Map<string, StoredOutput>();
  #mempoolSpends = new Map<string, OutputSpend>();
  /**
   * Decoded mempool transactions by txid, dropped when they leave the mempool. Each is read once: a
   * mainnet mempool holds tens of thousands.
   */
  #mempoolCache = new Map<string, RpcTransaction>();
  #baseHeight: number | null = null;
  #syncedHeight = -1;
  #tip = -1;
  /** When the last sync that reached the tip and read the mempool began (`moment()`); null before one. */
  #viewBegan: number | null = null;
  #inFlight: Promise<void> | null = null;
  #queued: Promise<void> | null = null;

  constructor(options: IndexerOptions) {
    this.#rpc = options.rpc;
    this.#network = options.network;
    this.#lookback = options.lookbackBlocks ?? 1008;
    this.#log = options.logger;
  }

  /** Starts following an address; the next `sync()` backfills it. */
  watch(address: string): void {
    const script = this.#scriptOf(address);
    if (this.#watched.has(script) || this.#pending.has(script)) return;
    this.#pending.set(script, address);
  }

  isWatched(address: string): boolean {
    const script = this.#scriptOf(address);
    return this.#watched.has(script) || this.#pending.has(script);
  }

  /** Watched and searched for: its activity is complete as of the last sync. */
  isFollowed(address: string): boolean {
    return this.#watched.has(this.#scriptOf(address));
  }

  /** Every round announces the HTLCs it will read again: decoding their addresses each time cost 2 s of CPU at 1,000 orders. */
  #scriptOf(address: string): string {
    let script = this.#scripts.get(address);
    if (script === undefined) {
      script = bytesToHex(btcAddress.toOutputScript(address, this.#network));
      this.#scripts.set(address, script);
    }
    return script;
  }

  get tipHeight(): number {
    return this.#tip;
  }

  /**
   * When the index's current view began to be read (`moment()`): everything it holds is at least as new
   * as the chain was then. Null until a sync has reached the tip and read the mempool; a sync that
   * failed or stopped at a reorg leaves the earlier one.
   */
  get viewBegan(): number | null {
    return this.#viewBegan;
  }

  /**
   * Brings the index up to the node's tip and mempool. Concurrent callers share work, but a caller
   * always gets a sync that started after its call, so it sees everything the node had by then.
   */
  sync(): Promise<void> {
    if (this.#queued !== null) return this.#queued;
    const previous = this.#inFlight ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(() => {
        this.#queued = null;
        this.#inFlight = run;
        return this.#syncOnce();
      })
      .finally(() => {
        if (this.#inFlight === run) this.#inFlight = null;
      });
    this.#queued = run;
    return run;
  }

  /** Outputs paying `address` and their spends, as of the last sync (watch and sync first). */
  activity(address: string): AddressActivity {
    const outputs: FundingOutput[] = [];
    for (const stored of [...this.#outputs.values(), ...this.#mempoolOutputs.values()]) {
      if (stored.address !== address) continue;
      const key = outpointKey(stored.txid, stored.vout);
      const spentBy = this.#spends.get(key) ?? this.#mempoolSpends.get(key) ?? null;
      const { txid, vout, value, height } = stored;
      outputs.push({ txid, vout, value, height, spentBy });
    }
    return { address, tipHeight: this.#tip, outputs };
  }

  /**
   * The watched addresses that blocks `from`..`to` paid or spent from, as of the last sync; null when
   * the index does not hold every one of those blocks (not synced that far, or below the look-back).
   */
  touchedBetween(from: number, to: number): string[] | null {
    if (to > this.#syncedHeight || from <= this.#syncedHeight - this.#lookback) return null;
    const touched = new Set<string>();
    for (let height = from; height <= to; height++) {
      if (!this.#hashes.has(height)) return null;
      for (const address of this.#touched.get(height) ?? []) touched.add(address);
    }
    return [...touched];
  }

  async #syncOnce(): Promise<void> {
    const began = moment();
    const timer = new PhaseTimer();
    // The followed top's hash is asked beside the tip: usually it still matches, and the walk back for
    // a reorg then needs no round trip of its own.
    const followed = this.#syncedHeight;
    const followedHash = this.#hashes.has(followed) ? settledLater(this.#rpc.getBlockHash(followed)) : null;
    const tip = await timer.time("tip", () => this.#rpc.getBlockCount());
    // Listed once the tip is known, beside the walk: no transaction of a block up to the tip is still in
    // it, and its spends are matched only after the blocks are followed. After the walk it cost the
    // chain watch's sync of a new block two more round trips in a row.
    const mempoolRead = settledLater(this.#readMempool());
    if (this.#baseHeight === null) {
      this.#baseHeight = Math.max(0, tip - this.#lookback);
      this.#syncedHeight = this.#baseHeight - 1;
    }
    await timer.time("rollBack", async () => {
      const unchanged =
        followedHash !== null &&
        tip >= followed &&
        (await followedHash.catch(() => null)) === this.#hashes.get(followed);
      if (!unchanged) await this.#rollBackToCommonAncestor(tip);
    });
    const newAddresses = this.#pending.size;
    const followedFrom = this.#syncedHeight;
    const backfillReads = await timer.time("backfill", () => this.#backfillPending());
    const reachedTip = await timer.time("blocks", async () => {
      for await (const read of this.#blocksFrom(this.#syncedHeight + 1, tip)) {
        if (!this.#connectBlock(read)) {
          // The chain moved under us (reorg while following); the next sync resolves it.
          return false;
        }
      }
      return true;
    });
    this.#tip = this.#syncedHeight;
    await timer.time("mempool", async () => {
      await mempoolRead;
      this.#indexMempool();
    });
    if (reachedTip) this.#viewBegan = began;
    // Every read waits for a sync that starts after it: a slow one holds every Bitcoin read behind it.
    const tookMs = timer.elapsedMs();
    if (tookMs > SLOW_SYNC_MS) {
      const blocks = this.#syncedHeight - followedFrom;
      this.#log?.warn(
        { tookMs, phasesMs: timer.phasesMs, newAddresses, backfillReads, blocks },
        "slow bitcoin index sync",
      );
    }
  }

  /** Walks back from the highest followed height until the node's hash matches the stored one. */
  async #rollBackToCommonAncestor(tip: number): Promise<void> {
    const base = this.#baseHeight ?? 0;
    let height = Math.min(this.#syncedHeight, tip);
    while (height >= base) {
      const stored = this.#hashes.get(height);
      if (stored !== undefined && stored === (await this.#rpc.getBlockHash(height))) break;
      height--;
    }
    if (height === this.#syncedHeight) return;
    this.#log?.warn({ from: this.#syncedHeight, to: height }, "bitcoin indexer: rolling back after a reorg");
    this.#disconnectAbove(height);
  }

  #disconnectAbove(height: number): void {
    for (const h of [...this.#hashes.keys()]) if (h > height) this.#hashes.delete(h);
    for (const h of [...this.#filters.keys()]) if (h > height) this.#filters.delete(h);
    for (const h of [...this.#touched.keys()]) if (h > height) this.#touched.delete(h);
    for (const [key, output] of this.#outputs) {
      if (output.height !== null && output.height > height) this.#outputs.delete(key);
    }
    for (const [key, spend] of this.#spends) {
      if (spend.height !== null && spend.height > height) this.#spends.delete(key);
    }
    this.#syncedHeight = height;
  }

  /**
   * The blocks from `from` to `to`, read up to BLOCKS_IN_FLIGHT at a time and handed over in height
   * order: one at a time, each read waited a round trip (a first walk of 264 regtest blocks took 24 s
   * while the solver answered a burst of quotes). Reads still under way when the caller stops are
   * dropped unread.
   */
  async *#blocksFrom(from: number, to: number): AsyncGenerator<BlockRead> {
    const reads: Promise<BlockRead>[] = [];
    let next = from;
    const readNext = (): void => {
      if (next > to) return;
      // Awaited below, or dropped when the caller stops early.
      reads.push(settledLater(this.#readBlock(next++)));
    };
    for (let i = 0; i < BLOCKS_IN_FLIGHT; i++) readNext();
    while (reads.length > 0) {
      const read = await reads.shift()!;
      readNext();
      yield read;
    }
  }

  async #readBlock(height: number): Promise<BlockRead> {
    const hash = await this.#rpc.getBlockHash(height);
    return { height, hash, block: await this.#rpc.getBlock(hash, 2) };
  }

  /** Follows a block read; false when its parent is not the block stored below it. */
  #connectBlock({ height, hash, block }: BlockRead): boolean {
    const parent = this.#hashes.get(height - 1);
    if (parent !== undefined && block.previousblockhash !== parent) return false;
    for (const tx of block.tx) this.#indexTransaction(tx, height, this.#watched, this.#outputs, this.#spends);
    this.#hashes.set(height, hash);
    this.#filters.set(height, BlockFilter.of(filterItems(block.tx)));
    // A backfill never searches below the look-back, so older filters are only memory.
    this.#filters.delete(height - this.#lookback);
    this.#touched.delete(height - this.#lookback);
    this.#syncedHeight = height;
    return true;
  }

  /**
   * Searches the followed range once for all newly added addresses, then follows them with the rest.
   * Only blocks that may pay a new address, or spend an output found paying one, are read again; the
   * search goes up the chain, so a spend is looked for in every block above the output it spends.
   */
  async #backfillPending(): Promise<number> {
    if (this.#pending.size === 0) return 0;
    const scripts = new Map(this.#pending);
    this.#pending.clear();
    const from = Math.max(this.#baseHeight ?? 0, this.#syncedHeight - this.#lookback + 1);
    const sought = [...scripts.keys()].map(filterKey);
    // Outputs paying the new addresses; only their spends are new, older outputs' are indexed already.
    const found = new Map<string, StoredOutput>();
    let reads = 0;
    for (let height = from; height <= this.#syncedHeight; height++) {
      if (this.#ruledOut(height, sought)) continue;
      const hash = this.#hashes.get(height) ?? (await this.#rpc.getBlockHash(height));
      const block = await this.#rpc.getBlock(hash, 2);
      reads++;
      for (const tx of block.tx) {
        this.#indexTransaction(tx, height, scripts, found, this.#spends);
        for (const out of tx.vout) {
          if (scripts.has(out.scriptPubKey.hex)) sought.push(filterKey(outpointKey(tx.txid, out.n)));
        }
      }
    }
    for (const [key, output] of found) this.#outputs.set(key, output);
    // The mempool's transactions are kept: every sync indexes them again against every watched address.
    for (const [script, address] of scripts) this.#watched.set(script, address);
    return reads;
  }

  /** True when the block's kept filter says it holds none of `sought`; a block without one is read. */
  #ruledOut(height: number, sought: readonly FilterKey[]): boolean {
    const filter = this.#filters.get(height);
    return filter !== undefined && !sought.some((key) => filter.mayHold(key));
  }

  /** Lists the mempool and reads the transactions not read before; the cache then holds exactly it. */
  async #readMempool(): Promise<void> {
    const txids = await this.#rpc.getRawMempool();
    const live = new Set(txids);
    for (const txid of this.#mempoolCache.keys()) if (!live.has(txid)) this.#mempoolCache.delete(txid);
    const reads = new PQueue({ concurrency: MEMPOOL_READS_IN_FLIGHT });
    await Promise.all(
      txids
        .filter((txid) => !this.#mempoolCache.has(txid))
        .map((txid) =>
          reads.add(async () => {
            const tx = await this.#fetchMempoolTx(txid);
            if (tx !== null) this.#mempoolCache.set(txid, tx);
          }),
        ),
    );
  }

  #indexMempool(): void {
    const outputs = new Map<string, StoredOutput>();
    const spends = new Map<string, OutputSpend>();
    const known = (key: string): StoredOutput | undefined => this.#outputs.get(key) ?? outputs.get(key);
    // Outputs first, so a spend of an unconfirmed funding is recognised whatever the mempool order.
    for (const tx of this.#mempoolCache.values()) this.#indexOutputs(tx, null, this.#watched, outputs);
    for (const tx of this.#mempoolCache.values()) this.#indexSpends(tx, null, known, spends);
    this.#mempoolOutputs = outputs;
    this.#mempoolSpends = spends;
  }

  /** A mempool transaction can leave between listing and fetching it; that is not an error. */
  async #fetchMempoolTx(txid: string): Promise<RpcTransaction | null> {
    try {
      return await this.#rpc.getRawTransactionVerbose(txid);
    } catch (error) {
      this.#log?.debug(
        { txid, err: error },
        "bitcoin indexer: mempool transaction vanished before it was read",
      );
      return null;
    }
  }

  #indexTransaction(
    tx: RpcTransaction,
    height: number,
    scripts: Map<string, string>,
    outputs: Map<string, StoredOutput>,
    spends: Map<string, OutputSpend>,
  ): void {
    this.#indexOutputs(tx, height, scripts, outputs);
    this.#indexSpends(tx, height, (key) => outputs.get(key), spends);
  }

  #indexOutputs(
    tx: RpcTransaction,
    height: number | null,
    scripts: Map<string, string>,
    outputs: Map<string, StoredOutput>,
  ): void {
    for (const out of tx.vout) {
      const address = scripts.get(out.scriptPubKey.hex);
      if (address === undefined) continue;
      this.#touch(height, address);
      outputs.set(outpointKey(tx.txid, out.n), {
        address,
        txid: tx.txid,
        vout: out.n,
        value: out.valueSats,
        height,
      });
    }
  }

  #indexSpends(
    tx: RpcTransaction,
    height: number | null,
    watchedOutput: (key: string) => StoredOutput | undefined,
    spends: Map<string, OutputSpend>,
  ): void {
    tx.vin.forEach((input, vin) => {
      if (input.txid === undefined || input.vout === undefined) return;
      const key = outpointKey(input.txid, input.vout);
      const spent = watchedOutput(key);
      if (spent === undefined) return;
      this.#touch(height, spent.address);
      spends.set(key, { txid: tx.txid, vin, height, witness: input.txinwitness });
    });
  }

  /** Notes that the block at `height` paid or spent from `address`; the mempool (null) is not a block. */
  #touch(height: number | null, address: string): void {
    if (height === null) return;
    const touched = this.#touched.get(height);
    if (touched === undefined) this.#touched.set(height, new Set([address]));
    else touched.add(address);
  }
}

/** A block's output scripts and spent outpoints: what a newly watched address could need from it. */
function filterItems(transactions: readonly RpcTransaction[]): string[] {
  const items: string[] = [];
  for (const tx of transactions) {
    for (const out of tx.vout) items.push(out.scriptPubKey.hex);
    for (const input of tx.vin) {
      if (input.txid !== undefined && input.vout !== undefined)
        items.push(outpointKey(input.txid, input.vout));
    }
  }
  return items;
}

import type { Block, Transaction } from "bitcoinjs-lib";
import { buildBlock, createGenesisBlock } from "./block-builder.js";
import { selectTransactions } from "./block-selection.js";
import { validateBlockTransactions } from "./block-validation.js";
import { ChainState, type BlockEntry } from "./chain.js";
import { prevTxid, type Coin } from "./coins.js";
import { RPC_CODE, RpcMethodError, TxRejectedError } from "./errors.js";
import { acceptToMempool, feeAtRate, type AcceptResult } from "./mempool-accept.js";
import { Mempool } from "./mempool.js";
import { REGTEST } from "./params.js";

export interface RegtestNodeOptions {
  /** What estimatesmartfee answers, in sat/vB; default 2. */
  feeRateSatVb?: bigint;
  /** Lowest package fee rate mined (bitcoind's -blockmintxfee), in sat/vB; default 1. */
  blockMinFeeRateSatVb?: bigint;
  /** Clock in unix milliseconds; default Date.now. */
  nowMs?: () => number;
}

export interface SendOptions {
  /** bitcoind's maxfeerate in sat/kvB; 0 disables the check. Default 0.10 BTC/kvB. */
  maxFeeRateSatKvB?: bigint;
  /** bitcoind's maxburnamount in sats; default 0. */
  maxBurnSats?: bigint;
}

export interface CoinInfo {
  coin: Coin;
  /** 0 for an output of a mempool transaction. */
  confirmations: number;
}

const MAX_FEE_EXCEEDED = "Fee exceeds maximum configured by user (e.g. -maxtxfee, maxfeerate)";

/**
 * An in-memory Bitcoin regtest node: chain, UTXO set and mempool, verifying every transaction it
 * accepts the way Bitcoin Core 26 does (see docs/bitcoin-regtest.md for the exact scope).
 */
export class BitcoinRegtestNode {
  readonly chain: ChainState;
  readonly mempool = new Mempool();
  readonly startedAtMs: number;
  feeRateSatKvB: bigint;
  blockMinFeeRateSatKvB: bigint;
  /** setmocktime: unix seconds that replace the clock, or null. */
  mockTime: number | null = null;
  readonly #nowMs: () => number;
  #leftInitialDownload = false;

  constructor(options: RegtestNodeOptions = {}) {
    this.#nowMs = options.nowMs ?? Date.now;
    this.startedAtMs = this.#nowMs();
    this.feeRateSatKvB = (options.feeRateSatVb ?? 2n) * 1000n;
    this.blockMinFeeRateSatKvB = (options.blockMinFeeRateSatVb ?? 1n) * 1000n;
    const genesis = createGenesisBlock();
    this.chain = new ChainState(this.#entryFor(genesis, 0, null, [], genesis.timestamp));
    this.mempool.nextHeight = 1;
  }

  /** Unix seconds, or the mock time. */
  now(): number {
    return this.mockTime ?? Math.floor(this.#nowMs() / 1000);
  }

  /** bitcoind leaves initial block download once its tip is younger than a day, and never returns. */
  inInitialBlockDownload(): boolean {
    if (!this.#leftInitialDownload && this.chain.tip.time >= this.now() - 24 * 3600)
      this.#leftInitialDownload = true;
    return !this.#leftInitialDownload;
  }

  #entryFor(
    block: Block,
    height: number,
    prev: BlockEntry | null,
    fees: bigint[],
    medianTimePast: number,
  ): BlockEntry {
    const txs = block.transactions ?? [];
    return {
      hash: block.getId(),
      height,
      prevHash: prev?.hash ?? null,
      block,
      txs,
      txids: txs.map((tx) => tx.getId()),
      fees: [0n, ...fees],
      undo: [],
      time: block.timestamp,
      medianTimePast,
      invalid: false,
    };
  }

  #acceptContext() {
    return { chain: this.chain, mempool: this.mempool, now: () => this.now() };
  }

  /** testmempoolaccept for one transaction: throws TxRejectedError with bitcoind's reason. */
  testAccept(tx: Transaction, maxFeeRateSatKvB: bigint = REGTEST.defaultMaxFeeRateSatKvB): AcceptResult {
    const result = acceptToMempool(this.#acceptContext(), tx, { testOnly: true });
    if (maxFeeRateSatKvB > 0n && result.fee > feeAtRate(maxFeeRateSatKvB, result.vsize)) {
      throw new TxRejectedError("max-fee-exceeded");
    }
    return result;
  }

  /** sendrawtransaction: returns the txid or throws RpcMethodError with bitcoind's code and message. */
  sendTransaction(tx: Transaction, options: SendOptions = {}): string {
    const txid = tx.getId();
    const maxBurn = options.maxBurnSats ?? 0n;
    if (
      tx.outs.some((out) => (out.script[0] === 0x6a || out.script.length > 10_000) && out.value > maxBurn)
    ) {
      throw new RpcMethodError(
        RPC_CODE.VERIFY_ERROR,
        "Unspendable output exceeds maximum configured by user (maxburnamount)",
      );
    }
    if (tx.outs.some((_, vout) => this.chain.utxos.getCoin(txid, vout) !== undefined)) {
      throw new RpcMethodError(RPC_CODE.VERIFY_ALREADY_IN_CHAIN, "Transaction already in block chain");
    }
    if (this.mempool.has(txid)) return txid;
    try {
      const checked = acceptToMempool(this.#acceptContext(), tx, { testOnly: true });
      const maxRate = options.maxFeeRateSatKvB ?? REGTEST.defaultMaxFeeRateSatKvB;
      if (maxRate > 0n && checked.fee > feeAtRate(maxRate, checked.vsize)) {
        throw new RpcMethodError(RPC_CODE.VERIFY_ERROR, MAX_FEE_EXCEEDED);
      }
      acceptToMempool(this.#acceptContext(), tx);
      return txid;
    } catch (error) {
      if (!(error instanceof TxRejectedError)) throw error;
      const code = error.missingInputs ? RPC_CODE.VERIFY_ERROR : RPC_CODE.VERIFY_REJECTED;
      throw new RpcMethodError(code, error.message);
    }
  }

  /** generatetoaddress: mines `count` blocks of mempool transactions paying `payoutScript`. */
  mine(count: number, payoutScript: Uint8Array): string[] {
    const hashes: string[] = [];
    for (let i = 0; i < count; i++) {
      const entries = selectTransactions(this.mempool, this.blockMinFeeRateSatKvB);
      hashes.push(
        this.mineBlock(
          payoutScript,
          entries.map((e) => e.tx),
        ),
      );
    }
    return hashes;
  }

  /** generateblock: mines exactly these transactions (validated with consensus rules) on the tip. */
  mineBlock(payoutScript: Uint8Array, txs: Transaction[]): string {
    const prev = this.chain.tip;
    const fees = validateBlockTransactions(this.chain, txs);
    const time = Math.max(this.now(), prev.time + 1);
    const totalFees = fees.reduce((a, b) => a + b, 0n);
    const block = buildBlock({
      prevHash: prev.hash,
      height: prev.height + 1,
      time,
      txs,
      totalFees,
      payoutScript,
    });
    // Rebuilding an invalidated block (same parent, transactions, payout and second) gives the same
    // hash, which bitcoind refuses as known-invalid: refuse it too, so tests learn to vary the payout.
    if (this.chain.byHash.get(block.getId())?.invalid === true) {
      throw new RpcMethodError(RPC_CODE.INTERNAL_ERROR, "ProcessNewBlock, block not accepted");
    }
    const entry = this.#entryFor(block, prev.height + 1, prev, fees, this.chain.medianTimeFor(prev, time));
    this.chain.connect(entry);
    this.#removeForBlock(entry);
    return entry.hash;
  }

  /** Drops mined transactions and everything double-spending the block's inputs from the mempool. */
  #removeForBlock(entry: BlockEntry): void {
    this.mempool.nextHeight = this.chain.height + 1;
    entry.txs.forEach((tx, index) => {
      const txid = entry.txids[index] ?? tx.getId();
      if (this.mempool.remove(txid) !== undefined) return;
      for (const input of tx.ins) {
        const spender = this.mempool.spenderOf(prevTxid(input), input.index);
        if (spender !== undefined && spender !== txid) this.mempool.removeWithDescendants(spender);
      }
    });
  }

  #requireBlock(hash: string): BlockEntry {
    const entry = this.chain.byHash.get(hash);
    if (entry === undefined) throw new RpcMethodError(RPC_CODE.INVALID_ADDRESS_OR_KEY, "Block not found");
    return entry;
  }

  #descendantsOf(entry: BlockEntry): BlockEntry[] {
    const result: BlockEntry[] = [];
    for (const candidate of this.chain.byHash.values()) {
      for (let e: BlockEntry | undefined = candidate; e !== undefined && e.height >= entry.height;) {
        if (e === entry) {
          result.push(candidate);
          break;
        }
        e = e.prevHash === null ? undefined : this.chain.byHash.get(e.prevHash);
      }
    }
    return result;
  }

  /** invalidateblock: marks the block and its descendants invalid and reorganizes away from them. */
  invalidateBlock(hash: string): void {
    const entry = this.#requireBlock(hash);
    if (entry.prevHash === null)
      throw new RpcMethodError(RPC_CODE.INVALID_PARAMETER, "Cannot invalidate the genesis block");
    for (const e of this.#descendantsOf(entry)) e.invalid = true;
    this.#activateBestChain();
  }

  /** reconsiderblock: clears invalid marks of the block, its ancestors and descendants. */
  reconsiderBlock(hash: string): void {
    const entry = this.#requireBlock(hash);
    for (const e of this.#descendantsOf(entry)) e.invalid = false;
    for (let e: BlockEntry | undefined = entry; e !== undefined;) {
      e.invalid = false;
      e = e.prevHash === null ? undefined : this.chain.byHash.get(e.prevHash);
    }
    this.#activateBestChain();
  }

  /** Moves the active chain to the highest valid block, then returns disconnected transactions to the mempool. */
  #activateBestChain(): void {
    const disconnected: BlockEntry[] = [];
    while (this.chain.tip.invalid) disconnected.push(this.chain.disconnectTip());
    let best = this.chain.tip;
    for (const e of this.chain.byHash.values()) if (!e.invalid && e.height > best.height) best = e;
    const branch: BlockEntry[] = [];
    for (let e: BlockEntry | undefined = best; e !== undefined && !this.chain.isActive(e);) {
      branch.unshift(e);
      e = e.prevHash === null ? undefined : this.chain.byHash.get(e.prevHash);
    }
    const forkHeight = (branch[0]?.height ?? this.chain.height + 1) - 1;
    while (this.chain.height > forkHeight) disconnected.push(this.chain.disconnectTip());
    for (const entry of branch) {
      try {
        validateBlockTransactions(this.chain, entry.txs.slice(1));
      } catch {
        for (const e of this.#descendantsOf(entry)) e.invalid = true;
        break;
      }
      this.chain.connect(entry);
      this.#removeForBlock(entry);
    }
    this.#resubmit(disconnected.reverse());
  }

  /** Re-accepts transactions of disconnected blocks (oldest first), then the previous mempool. */
  #resubmit(blocks: BlockEntry[]): void {
    const previous = this.mempool.clear();
    this.mempool.nextHeight = this.chain.height + 1;
    const context = this.#acceptContext();
    const retry = (tx: Transaction, bypassFeeLimits: boolean): void => {
      try {
        acceptToMempool(context, tx, { bypassFeeLimits });
      } catch (error) {
        if (!(error instanceof TxRejectedError)) throw error;
      }
    };
    for (const entry of blocks) for (const tx of entry.txs.slice(1)) retry(tx, true);
    for (const entry of previous) retry(entry.tx, false);
  }

  /** gettxout: the unspent output, or null when it is spent or unknown. */
  getTxOut(txid: string, vout: number, includeMempool: boolean): CoinInfo | null {
    if (includeMempool && this.mempool.spenderOf(txid, vout) !== undefined) return null;
    const coin = this.chain.utxos.getCoin(txid, vout);
    if (coin !== undefined) return { coin, confirmations: this.chain.height - coin.height + 1 };
    const pending = includeMempool ? this.mempool.getCoin(txid, vout) : undefined;
    return pending === undefined ? null : { coin: pending, confirmations: 0 };
  }
}

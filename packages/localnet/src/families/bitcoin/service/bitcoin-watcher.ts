/**
 * Watches Bitcoin swaps through the shared BitcoinIndexer: the outputs paying an HTLC address are its
 * funding, their spends are redeems (revealing the secret) or refunds. Funding and redeems are reported
 * from the mempool on (height 0, no timestamp) and updated on every poll, since more outputs may arrive
 * and heights change when they are mined; refunds only once mined.
 */
import type { FundingOutput } from "htlc-solver/chains/bitcoin/backend.js";
import { hexToBytes } from "htlc-solver/chains/bitcoin/bytes.js";
import { classifyHtlcSpend } from "htlc-solver/chains/bitcoin/htlc-witness.js";
import type { BitcoinIndexer } from "htlc-solver/chains/bitcoin/indexer.js";
import type { BitcoinNetworkName } from "htlc-solver/chains/bitcoin/network.js";
import type { BitcoinRpcClient } from "htlc-solver/chains/bitcoin/rpc.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ChainWatcher, SwapFacts, TxFact } from "../../../service/chains/service-chain.js";
import { htlcOfSwap } from "./bitcoin-htlc-of.js";

export class BitcoinWatcher implements ChainWatcher {
  /** Block time (unix seconds) by block hash. */
  private readonly blockTimes = new Map<string, number>();

  constructor(
    private readonly rpc: BitcoinRpcClient,
    private readonly indexer: BitcoinIndexer,
    private readonly network: BitcoinNetworkName,
  ) {}

  async tipHeight(): Promise<bigint> {
    await this.indexer.sync();
    return BigInt(this.indexer.tipHeight);
  }

  async headHeight(): Promise<bigint> {
    return BigInt(await this.rpc.getBlockCount());
  }

  /** Every output paying the swap's address, with its spend; a newly watched address is backfilled first. */
  async fundingOutputs(swapId: string): Promise<FundingOutput[]> {
    if (!this.indexer.isWatched(swapId)) {
      this.indexer.watch(swapId);
      await this.indexer.sync();
    }
    return this.indexer.activity(swapId).outputs;
  }

  async observe(swap: SwapRecord, _fromBlock: bigint, tip: bigint): Promise<SwapFacts> {
    const outputs = asOfTip(await this.fundingOutputs(swap.swap_id), Number(tip));
    if (outputs.length === 0) return { onChain: null };
    const htlc = htlcOfSwap(swap, this.network);
    const filledAmount = outputs.reduce((sum, o) => sum + o.value, 0n);
    const firstHeight = minHeight(outputs.map((o) => o.height));
    const facts: SwapFacts = {
      initiate: {
        txHash: fundingList(outputs),
        ...(await this.placeOf(firstHeight)),
        filledAmount,
      },
      // The address commits to keys, secret hash and timelock; only the amount is read from the chain.
      onChain: {
        initiator: swap.initiator,
        redeemer: swap.redeemer,
        timelock: BigInt(swap.timelock),
        amount: filledAmount,
      },
    };
    for (const output of outputs) {
      const spend = output.spentBy;
      if (spend === null) continue;
      const kind = classifyHtlcSpend(
        spend.witness.map((item) => hexToBytes(item, "witness item")),
        htlc,
      );
      if (kind.kind === "redeem" && facts.redeem === undefined) {
        facts.redeem = { txHash: spend.txid, ...(await this.placeOf(spend.height)), secret: kind.secret };
      } else if (kind.kind !== "redeem" && kind.kind !== "unknown" && spend.height !== null) {
        facts.refund ??= { txHash: spend.txid, ...(await this.placeOf(spend.height)) };
      }
    }
    return facts;
  }

  /** Height and block time of a mined transaction; 0 and null while it is in the mempool. */
  private async placeOf(height: number | null): Promise<Omit<TxFact, "txHash">> {
    if (height === null) return { blockNumber: 0n, timestamp: null };
    const hash = await this.rpc.getBlockHash(height);
    let time = this.blockTimes.get(hash);
    if (time === undefined) {
      time = (await this.rpc.getBlockHeader(hash)).time;
      this.blockTimes.set(hash, time);
    }
    return { blockNumber: BigInt(height), timestamp: new Date(time * 1000).toISOString() };
  }
}

/**
 * The outputs as they stood at block `tip`: a newly watched address is synced past the poll's tip, and
 * what was mined above it was still in the mempool then, so confirmations stay consistent with `tip`.
 */
function asOfTip(outputs: FundingOutput[], tip: number): FundingOutput[] {
  const at = (height: number | null): number | null => (height !== null && height <= tip ? height : null);
  return outputs.map((o) => ({
    ...o,
    height: at(o.height),
    spentBy: o.spentBy === null ? null : { ...o.spentBy, height: at(o.spentBy.height) },
  }));
}

function minHeight(heights: (number | null)[]): number | null {
  const mined = heights.filter((h): h is number => h !== null);
  return mined.length === 0 ? null : Math.min(...mined);
}

/**
 * `txid:height` of every funding transaction, comma-separated, mined ones first by height (0 while
 * unconfirmed): the form the live service gives a Bitcoin `initiate_tx_hash`.
 */
export function fundingList(outputs: FundingOutput[]): string {
  const heights = new Map<string, number>();
  for (const output of outputs) {
    if (!heights.has(output.txid)) heights.set(output.txid, output.height ?? 0);
  }
  const order = (height: number): number => (height === 0 ? Number.MAX_SAFE_INTEGER : height);
  return [...heights.entries()]
    .sort(([, a], [, b]) => order(a) - order(b))
    .map(([txid, height]) => `${txid}:${height}`)
    .join(",");
}

import { Writable } from "node:stream";
import { address as btcAddress, networks, payments } from "bitcoinjs-lib";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "../../../../src/chains/bitcoin/bytes.js";
import { BitcoinIndexer, type IndexerRpc } from "../../../../src/chains/bitcoin/indexer.js";
import type { RpcRawTransaction } from "../../../../src/chains/bitcoin/rpc.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A node of `height` blocks (empty unless `blocks` gives their transactions) whose block reads take
 * `blockReadMs` each, and these mempool transactions.
 */
function fakeNode(
  height: number,
  blockReadMs: number,
  mempool: RpcRawTransaction[] = [],
  blocks: ReadonlyMap<number, RpcRawTransaction[]> = new Map(),
): IndexerRpc & {
  height: number;
  /** Blocks replaced by a reorg: their hash by height. */
  forks: Map<number, string>;
  mempoolReads: number;
  /** "mempool" when the mempool was listed, "block <height>" when a block read ended, in order. */
  events: string[];
  /** How long each mempool transaction read takes. */
  mempoolReadMs: number;
  mostMempoolReadsAtOnce: number;
  blockReads: number[];
  mostReadsAtOnce: number;
} {
  const forks = new Map<number, string>();
  const hash = (h: number) => forks.get(h) ?? h.toString(16).padStart(64, "0");
  const node = {
    height,
    forks,
    mempoolReads: 0,
    events: [] as string[],
    blockReads: [] as number[],
    readsUnderWay: 0,
    mostReadsAtOnce: 0,
    getBlockCount: () => Promise.resolve(node.height),
    getBlockHash: (h: number) => Promise.resolve(hash(h)),
    getBlock: (async (blockHash: string) => {
      node.mostReadsAtOnce = Math.max(node.mostReadsAtOnce, ++node.readsUnderWay);
      await wait(blockReadMs);
      node.readsUnderWay--;
      const h = [...forks].find(([, forked]) => forked === blockHash)?.[0] ?? Number.parseInt(blockHash, 16);
      node.blockReads.push(h);
      node.events.push(`block ${h}`);
      const tx = blocks.get(h) ?? [];
      return { hash: blockHash, height: h, previousblockhash: h > 0 ? hash(h - 1) : undefined, tx };
    }) as unknown as IndexerRpc["getBlock"],
    getRawMempool: () => {
      node.events.push("mempool");
      return Promise.resolve(mempool.map((tx) => tx.txid));
    },
    mempoolReadMs: 0,
    mempoolReadsUnderWay: 0,
    mostMempoolReadsAtOnce: 0,
    getRawTransactionVerbose: async (txid: string) => {
      node.mempoolReads++;
      node.mostMempoolReadsAtOnce = Math.max(node.mostMempoolReadsAtOnce, ++node.mempoolReadsUnderWay);
      await wait(node.mempoolReadMs);
      node.mempoolReadsUnderWay--;
      const tx = mempool.find((t) => t.txid === txid);
      if (tx === undefined) throw new Error(`no transaction ${txid}`);
      return tx;
    },
  };
  return node;
}

/** A mempool transaction paying `value` to `address`. */
function payment(txid: string, address: string, value: bigint): RpcRawTransaction {
  const script = bytesToHex(btcAddress.toOutputScript(address, networks.regtest));
  return {
    txid,
    hash: txid,
    version: 2,
    size: 100,
    vsize: 100,
    weight: 400,
    locktime: 0,
    vin: [{ txid: "aa".repeat(32), vout: 0, txinwitness: [], sequence: 0 }],
    vout: [{ valueSats: value, n: 0, scriptPubKey: { asm: "", hex: script, type: "witness_v0_scripthash" } }],
    hex: "00",
  };
}

/** A transaction spending `txid:vout` to nowhere in particular. */
function spending(txid: string, spent: { txid: string; vout: number }): RpcRawTransaction {
  const unrelated = payment(txid, "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", 500n);
  return { ...unrelated, vin: [{ ...spent, txinwitness: ["01"], sequence: 0 }] };
}

function captured(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

describe("Bitcoin indexer over a fake node", () => {
  it("is logged with where its time went; a quick one is not", async () => {
    const { logger, lines } = captured();
    // Six blocks read side by side, each taking just over the threshold.
    const indexer = new BitcoinIndexer({ rpc: fakeNode(5, 1_050), network: networks.regtest, logger });
    indexer.watch("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080");
    await indexer.sync();
    await wait(10);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "slow bitcoin index sync", newAddresses: 1, blocks: 6 });
    const phases = lines[0]?.phasesMs as Record<string, number>;
    expect(phases.blocks).toBeGreaterThanOrEqual(1_000);
    expect(Object.keys(phases)).toEqual(["tip", "rollBack", "backfill", "blocks", "mempool"]);

    await indexer.sync();
    await wait(10);
    expect(lines).toHaveLength(1);
  });

  it("reads each mempool transaction once, however many addresses are added after it", async () => {
    const first = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    const later = payments.p2wsh({ hash: Buffer.alloc(32, 7), network: networks.regtest }).address!;
    const node = fakeNode(3, 0, [
      payment("bb".repeat(32), later, 40_000n),
      payment("cc".repeat(32), first, 1n),
    ]);
    const indexer = new BitcoinIndexer({ rpc: node, network: networks.regtest });
    indexer.watch(first);
    await indexer.sync();
    expect(node.mempoolReads).toBe(2);
    // An address watched later is backfilled over the blocks; the mempool it is matched against is the one read.
    indexer.watch(later);
    await indexer.sync();
    expect(node.mempoolReads).toBe(2);
    expect(indexer.activity(later).outputs).toEqual([
      { txid: "bb".repeat(32), vout: 0, value: 40_000n, height: null, spentBy: null },
    ]);
  });

  it("reads new mempool transactions side by side, sixteen at a time, and misses none", async () => {
    const watched = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    const txids = Array.from({ length: 40 }, (_, i) => i.toString(16).padStart(64, "0"));
    const node = fakeNode(3, 0, [
      ...txids.map((txid) => payment(txid, watched, 1_000n)),
      payment(
        "ee".repeat(32),
        payments.p2wsh({ hash: Buffer.alloc(32, 9), network: networks.regtest }).address!,
        1n,
      ),
    ]);
    node.mempoolReadMs = 20;
    const indexer = new BitcoinIndexer({ rpc: node, network: networks.regtest });
    indexer.watch(watched);
    await indexer.sync();
    expect(node.mostMempoolReadsAtOnce).toBe(16);
    expect(
      indexer
        .activity(watched)
        .outputs.map((o) => o.txid)
        .sort(),
    ).toEqual(txids);
  });

  it("searches a later address only in the blocks that pay it or spend what paid it", async () => {
    const first = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    const later = payments.p2wsh({ hash: Buffer.alloc(32, 9), network: networks.regtest }).address!;
    const paid = payment("dd".repeat(32), later, 70_000n);
    const spend = spending("ee".repeat(32), { txid: paid.txid, vout: 0 });
    const blocks = new Map<number, RpcRawTransaction[]>();
    // Every block holds some other payment, so a search that reads blocks blindly reads them all.
    for (let h = 0; h <= 30; h++) blocks.set(h, [payment(h.toString(16).padStart(64, "f"), first, 1_000n)]);
    blocks.get(10)!.push(paid);
    blocks.get(20)!.push(spend);
    const node = fakeNode(30, 0, [], blocks);
    const indexer = new BitcoinIndexer({ rpc: node, network: networks.regtest });
    indexer.watch(first);
    await indexer.sync();
    expect(node.blockReads).toHaveLength(31);

    node.blockReads.length = 0;
    indexer.watch(later);
    await indexer.sync();
    expect(node.blockReads).toEqual([10, 20]);
    expect(indexer.activity(later).outputs).toEqual([
      {
        txid: paid.txid,
        vout: 0,
        value: 70_000n,
        height: 10,
        spentBy: { txid: spend.txid, vin: 0, height: 20, witness: ["01"] },
      },
    ]);
  });

  it("lists the mempool beside the new blocks' reads, and matches its spends of their outputs", async () => {
    const watched = payments.p2wsh({ hash: Buffer.alloc(32, 12), network: networks.regtest }).address!;
    const blocks = new Map<number, RpcRawTransaction[]>();
    const mempool: RpcRawTransaction[] = [];
    const node = fakeNode(3, 30, mempool, blocks);
    const indexer = new BitcoinIndexer({ rpc: node, network: networks.regtest });
    indexer.watch(watched);
    await indexer.sync();
    // Block 4 pays the address; a mempool transaction spends that output.
    const paid = payment("a4".repeat(32), watched, 9_000n);
    blocks.set(4, [paid]);
    mempool.push(spending("b4".repeat(32), { txid: paid.txid, vout: 0 }));
    node.height = 4;
    node.events.length = 0;
    await indexer.sync();
    expect(node.events).toEqual(["mempool", "block 4"]);
    expect(indexer.activity(watched).outputs).toEqual([
      {
        txid: paid.txid,
        vout: 0,
        value: 9_000n,
        height: 4,
        spentBy: { txid: "b4".repeat(32), vin: 0, height: null, witness: ["01"] },
      },
    ]);
  });

  it("walks new blocks eight reads at a time and follows them in height order", async () => {
    const watched = payments.p2wsh({ hash: Buffer.alloc(32, 11), network: networks.regtest }).address!;
    const blocks = new Map<number, RpcRawTransaction[]>();
    for (let h = 1; h <= 40; h += 3)
      blocks.set(h, [payment(h.toString(16).padStart(64, "a"), watched, BigInt(h))]);
    const node = fakeNode(40, 5, [], blocks);
    const indexer = new BitcoinIndexer({ rpc: node, network: networks.regtest });
    indexer.watch(watched);
    await indexer.sync();
    expect(node.mostReadsAtOnce).toBe(8);
    expect(indexer.tipHeight).toBe(40);
    const heights = indexer.activity(watched).outputs.map((o) => o.height);
    expect(heights).toEqual([...blocks.keys()]);
    expect(indexer.activity(watched).outputs.map((o) => o.value)).toEqual([...blocks.keys()].map(BigInt));
  });

  it("tells which watched addresses each block paid or spent from, and forgets blocks a reorg replaced", async () => {
    const watched = payments.p2wsh({ hash: Buffer.alloc(32, 13), network: networks.regtest }).address!;
    const later = payments.p2wsh({ hash: Buffer.alloc(32, 14), network: networks.regtest }).address!;
    const paid = payment("a1".repeat(32), watched, 5_000n);
    const blocks = new Map<number, RpcRawTransaction[]>([
      [10, [paid]],
      [12, [payment("a2".repeat(32), later, 6_000n)]],
      [14, [payment("a3".repeat(32), "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", 7_000n)]],
      [20, [spending("a4".repeat(32), { txid: paid.txid, vout: 0 })]],
    ]);
    const node = fakeNode(30, 0, [], blocks);
    const indexer = new BitcoinIndexer({ rpc: node, network: networks.regtest, lookbackBlocks: 25 });
    indexer.watch(watched);
    await indexer.sync();
    expect(indexer.touchedBetween(10, 10)).toEqual([watched]);
    expect(indexer.touchedBetween(11, 19)).toEqual([]); // 12 pays an address not watched yet, 14 none
    expect(indexer.touchedBetween(20, 30)).toEqual([watched]);
    // Not followed yet, or below the look-back: the index cannot tell.
    expect(indexer.touchedBetween(30, 31)).toBeNull();
    expect(indexer.touchedBetween(5, 10)).toBeNull();

    // An address watched later is found in the blocks it was paid in.
    indexer.watch(later);
    await indexer.sync();
    expect(indexer.touchedBetween(12, 12)).toEqual([later]);

    // A reorg from height 20 up: the new blocks do not spend the watched output.
    blocks.delete(20);
    for (let h = 20; h <= 31; h++) node.forks.set(h, h.toString(16).padStart(64, "b"));
    node.height = 31;
    await indexer.sync();
    expect(indexer.touchedBetween(20, 31)).toEqual([]);
    expect(indexer.activity(watched).outputs[0]?.spentBy).toBeNull();
  });
});

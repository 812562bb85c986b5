import { networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { BitcoindBackend } from "../../../../src/chains/bitcoin/bitcoind-backend.js";
import {
  BitcoinRpcError,
  type BitcoinRpcClient,
  type RpcMempoolEntry,
} from "../../../../src/chains/bitcoin/rpc.js";
import { moment } from "../../../../src/util/moment.js";

/** A node of `height` empty blocks whose tip reads are counted and block reads recorded. */
function emptyNode(height: () => number) {
  const hash = (h: number) => h.toString(16).padStart(64, "0");
  const calls = { tip: 0, blockReads: [] as number[] };
  const rpc = {
    sticky: <T>(_what: string, read: () => Promise<T>) => read(),
    getBlockCount: () => {
      calls.tip++;
      return Promise.resolve(height());
    },
    getBlockHash: (h: number) => Promise.resolve(hash(h)),
    getBlock: (blockHash: string) => {
      const h = Number.parseInt(blockHash, 16);
      calls.blockReads.push(h);
      const previousblockhash = h > 0 ? hash(h - 1) : undefined;
      return Promise.resolve({ hash: blockHash, height: h, previousblockhash, tx: [] });
    },
    getRawMempool: () =>
      mempoolDown ? Promise.reject(new Error("mempool unavailable")) : Promise.resolve([]),
  } as unknown as BitcoinRpcClient;
  let mempoolDown = false;
  return { rpc, calls, setMempoolDown: (down: boolean) => (mempoolDown = down) };
}

const ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

describe("bitcoind backend", () => {
  it("answers from its last sync where the latest view will do, once it follows the address", async () => {
    let height = 40;
    const { rpc, calls } = emptyNode(() => height);
    const backend = new BitcoindBackend({ rpc, network: networks.regtest, lookbackBlocks: 30 });
    // Not followed yet: it must be searched for, whatever the caller allows.
    expect((await backend.addressActivity(ADDRESS, { latestView: true })).tipHeight).toBe(40);
    expect(calls.tip).toBe(1);
    height = 41;
    expect((await backend.addressActivity(ADDRESS, { latestView: true })).tipHeight).toBe(40);
    expect(calls.tip).toBe(1);
    // Without it, every read waits for a sync that starts after it.
    expect((await backend.addressActivity(ADDRESS)).tipHeight).toBe(41);
    expect(calls.tip).toBe(2);
  });

  it("answers from a sync begun after `viewAfter`, and syncs again for a view begun before it", async () => {
    let height = 40;
    const { rpc, calls, setMempoolDown } = emptyNode(() => height);
    const backend = new BitcoindBackend({ rpc, network: networks.regtest, lookbackBlocks: 30 });
    await backend.addressActivity(ADDRESS);
    expect(calls.tip).toBe(1);
    // A tip answered after that sync began: the index must sync again to be no older than it.
    height = 41;
    const tipAnswered = moment();
    expect((await backend.addressActivity(ADDRESS, { viewAfter: tipAnswered })).tipHeight).toBe(41);
    expect(calls.tip).toBe(2);
    // That sync began after the tip: it will do for every read paired with the same tip.
    height = 42;
    expect((await backend.addressActivity(ADDRESS, { viewAfter: tipAnswered })).tipHeight).toBe(41);
    expect(calls.tip).toBe(2);
    // A sync that failed does not count as a view: the next read paired with a later tip syncs again.
    setMempoolDown(true);
    const later = moment();
    await expect(backend.addressActivity(ADDRESS, { viewAfter: later })).rejects.toThrow(
      "mempool unavailable",
    );
    setMempoolDown(false);
    expect((await backend.addressActivity(ADDRESS, { viewAfter: later })).tipHeight).toBe(42);
    expect(calls.tip).toBe(4);
  });

  it("walks the index's look-back when warmed up, so the first address read only searches its own blocks", async () => {
    const {
      rpc,
      calls: { blockReads },
    } = emptyNode(() => 40);
    const backend = new BitcoindBackend({ rpc, network: networks.regtest, lookbackBlocks: 30 });

    await backend.warmUp();
    expect(backend.indexer.tipHeight).toBe(40);
    expect(blockReads).toHaveLength(31);

    blockReads.length = 0;
    const activity = await backend.addressActivity(ADDRESS);
    expect(activity).toEqual({
      address: ADDRESS,
      tipHeight: 40,
      outputs: [],
    });
    expect(blockReads).toEqual([]);
  });

  it("reads a transaction's descendants from its mempool entry, itself left out", async () => {
    const entry = {
      vsize: 150,
      descendantcount: 3,
      descendantsize: 150 + 120 + 4_000,
      fees: { baseSats: 300n, modifiedSats: 300n, ancestorSats: 300n, descendantSats: 300n + 240n + 4_000n },
    } as RpcMempoolEntry;
    const rpc = {
      getMempoolEntry: (txid: string) =>
        txid === "aa".repeat(32)
          ? Promise.resolve(entry)
          : Promise.reject(new BitcoinRpcError("getmempoolentry", -5, "Transaction not in mempool")),
    } as unknown as BitcoinRpcClient;
    const backend = new BitcoindBackend({ rpc, network: networks.regtest });
    expect(await backend.mempoolDescendants("aa".repeat(32))).toEqual({
      count: 2,
      vsize: 4_120,
      feeSats: 4_240n,
    });
    expect(await backend.mempoolDescendants("bb".repeat(32))).toBeNull();
  });
});

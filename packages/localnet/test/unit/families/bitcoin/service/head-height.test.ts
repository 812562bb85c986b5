import { networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { BitcoinIndexer, type IndexerRpc } from "htlc-solver/chains/bitcoin/indexer.js";
import type { BitcoinRpcClient } from "htlc-solver/chains/bitcoin/rpc.js";
import { BitcoinWatcher } from "../../../../../src/families/bitcoin/service/bitcoin-watcher.js";
import { held, stillPendingAfter } from "../../../../../../../test/support/held.js";

describe("Bitcoin watcher of the local service", () => {
  it("gives the node's tip for a new order's watch without waiting for its index to catch up", async () => {
    const blockRead = held();
    const node = {
      getBlockCount: () => Promise.resolve(412),
      getBlockHash: (height: number) => Promise.resolve(height.toString(16).padStart(64, "0")),
      // Every block read hangs: the index's walk never ends, as in a burst of new addresses.
      getBlock: () => blockRead.until.then(() => Promise.reject(new Error("released"))),
      getRawMempool: () => Promise.resolve([]),
      getRawTransactionVerbose: () => Promise.reject(new Error("no mempool here")),
    } as unknown as IndexerRpc & BitcoinRpcClient;
    const watcher = new BitcoinWatcher(
      node,
      new BitcoinIndexer({ rpc: node, network: networks.regtest }),
      "regtest",
    );

    const caughtUp = watcher.tipHeight();
    expect(await watcher.headHeight()).toBe(412n);
    expect(await stillPendingAfter(caughtUp, 50)).toBe(true);
    blockRead.release();
    await expect(caughtUp).rejects.toThrow("released");
  });
});

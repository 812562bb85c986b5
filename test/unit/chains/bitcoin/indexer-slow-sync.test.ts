import { Writable } from "node:stream";
import { networks } from "bitcoinjs-lib";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { BitcoinIndexer, type IndexerRpc } from "../../../../src/chains/bitcoin/indexer.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A node of `height` empty blocks whose block reads take `blockReadMs` each. */
function slowNode(height: number, blockReadMs: number): IndexerRpc {
  const hash = (h: number) => h.toString(16).padStart(64, "0");
  return {
    getBlockCount: () => Promise.resolve(height),
    getBlockHash: (h: number) => Promise.resolve(hash(h)),
    getBlock: (async (blockHash: string) => {
      await wait(blockReadMs);
      const h = Number.parseInt(blockHash, 16);
      return { hash: blockHash, height: h, previousblockhash: h > 0 ? hash(h - 1) : undefined, tx: [] };
    }) as unknown as IndexerRpc["getBlock"],
    getRawMempool: () => Promise.resolve([]),
    getRawTransactionVerbose: () => Promise.reject(new Error("no transactions here")),
  };
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

describe("Bitcoin indexer: a slow sync", () => {
  it("is logged with where its time went; a quick one is not", async () => {
    const { logger, lines } = captured();
    const indexer = new BitcoinIndexer({ rpc: slowNode(5, 250), network: networks.regtest, logger });
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
});

/**
 * Anyone can pay an HTLC address thousands of outputs. Against a fake Esplora server, a read of an
 * address's activity stops at its bounds (pages of transactions, bytes of one reply, bytes of the whole
 * read) and fails naming the bound: it never answers with part of the history, and never follows the
 * attacker's pages to the end.
 */
import { afterAll, describe, expect, it } from "vitest";
import { EsploraBackend, EsploraLimitError } from "../../../../src/chains/bitcoin/esplora-backend.js";
import { DEFAULT_ESPLORA_READ_LIMITS } from "../../../../src/chains/bitcoin/esplora-read-budget.js";
import { startFakeEsplora, tipBlocks, type FakeEsplora } from "./esplora-fake.js";

const ADDRESS = "bcrt1pattackedhtlcaddress";
const SCRIPT = `5120${"ab".repeat(32)}`;
const PAGE = 25;

const servers: FakeEsplora[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const txid = (n: number) => n.toString(16).padStart(64, "0");

/** A confirmed transaction paying the address `outputs` outputs of 1 000 sats. */
function payment(n: number, outputs = 1) {
  return {
    txid: txid(n),
    vin: [{ txid: txid(1_000_000 + n), vout: 0, witness: [], is_coinbase: false }],
    vout: Array.from({ length: outputs }, () => ({
      scriptpubkey: SCRIPT,
      scriptpubkey_address: ADDRESS,
      value: 1_000,
    })),
    status: { confirmed: true, block_height: 100 },
  };
}

/** An address paid by `count` transactions of `outputs` outputs each, served newest first, 25 a page. */
async function addressPaid(count: number, outputs = 1): Promise<FakeEsplora> {
  const txs = Array.from({ length: count }, (_, i) => payment(count - i, outputs));
  const pageAfter = (index: number) => JSON.stringify(txs.slice(index, index + PAGE));
  const server = await startFakeEsplora((_method, path) => {
    if (path === "/blocks") return [200, JSON.stringify(tipBlocks(120))];
    if (path === `/address/${ADDRESS}/txs`) return [200, pageAfter(0)];
    const chain = /^\/address\/[^/]+\/txs\/chain\/([0-9a-f]{64})$/.exec(path);
    if (chain !== null) return [200, pageAfter(txs.findIndex((t) => t.txid === chain[1]) + 1)];
    if (path.endsWith("/outspends")) return [200, JSON.stringify(Array(outputs).fill({ spent: false }))];
    return [404, "not found"];
  });
  servers.push(server);
  return server;
}

const pagesSeen = (server: FakeEsplora) => server.seen.filter((s) => s.path.includes("/txs")).length;

describe("one read of an Esplora address", () => {
  it("reads a history within its bounds whole", async () => {
    const server = await addressPaid(3 * PAGE + 1);
    const activity = await new EsploraBackend({ url: server.url }).addressActivity(ADDRESS);
    expect(activity.outputs).toHaveLength(3 * PAGE + 1);
    expect(pagesSeen(server)).toBe(4);
  });

  it("fails, without following them all, at more pages than it reads", async () => {
    const maxPages = DEFAULT_ESPLORA_READ_LIMITS.maxPages;
    const server = await addressPaid((maxPages + 20) * PAGE);
    const error = await new EsploraBackend({ url: server.url })
      .addressActivity(ADDRESS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EsploraLimitError);
    expect((error as Error).message).toContain(
      `address ${ADDRESS} has more transactions than the ${maxPages} pages the solver reads of one address`,
    );
    expect(pagesSeen(server)).toBe(maxPages + 1);
    expect(server.seen.filter((s) => s.path.endsWith("/outspends"))).toEqual([]);
  });

  it("fails at a reply larger than one reply may be, and at more bytes than one read may take", async () => {
    // 25 transactions of 100 outputs each: a page of some 300 kB.
    const wide = await addressPaid(PAGE, 100);
    const bigReply = await new EsploraBackend({ url: wide.url, limits: { maxReplyBytes: 64 * 1024 } })
      .addressActivity(ADDRESS)
      .catch((e: unknown) => e);
    expect(bigReply).toBeInstanceOf(EsploraLimitError);
    expect((bigReply as Error).message).toContain("the reply is larger than 65536 bytes");

    const long = await addressPaid(10 * PAGE, 4);
    const manyBytes = await new EsploraBackend({ url: long.url, limits: { maxReadBytes: 60_000 } })
      .addressActivity(ADDRESS)
      .catch((e: unknown) => e);
    expect(manyBytes).toBeInstanceOf(EsploraLimitError);
    expect((manyBytes as Error).message).toContain(
      `reading address ${ADDRESS} took more than the 60000 bytes the solver reads for one address`,
    );
    expect(pagesSeen(long)).toBeLessThan(10);
  });
});

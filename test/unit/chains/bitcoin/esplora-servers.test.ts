/**
 * The Esplora backend over several servers (small in-test HTTP servers): reads skip a server that is
 * behind and one that rate-limits, broadcasts go to every server, credentials go in a header.
 */
import { Transaction } from "bitcoinjs-lib";
import { afterAll, describe, expect, it } from "vitest";
import { EsploraBackend } from "../../../../src/chains/bitcoin/esplora-backend.js";
import { startFakeEsplora, tipBlocks, type FakeEsplora, type Route } from "./esplora-fake.js";

const servers: FakeEsplora[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function esplora(route: Route): Promise<FakeEsplora> {
  const server = await startFakeEsplora(route);
  servers.push(server);
  return server;
}

const TXID = "ab".repeat(32);
const tx = new Transaction();
tx.version = 2;
tx.addInput(Buffer.alloc(32, 1), 0);
tx.addOutput(Buffer.from("0014" + "11".repeat(20), "hex"), 10_000n);

/** An Esplora server at `tip` that knows TXID confirmed at 118 only once its tip has reached it. */
const chainAt =
  (tip: number): Route =>
  (method, path, body) => {
    if (path === "/blocks") return [200, JSON.stringify(tipBlocks(tip))];
    if (path === `/tx/${TXID}/status`)
      return tip >= 118 ? [200, JSON.stringify({ confirmed: true, block_height: 118 })] : [404, "not found"];
    if (method === "POST" && path === "/tx") return [200, Transaction.fromHex(body).getId()];
    return [404, "not found"];
  };

const options = { maxHeadLagBlocks: 1, headRefreshMs: 250, timeoutMs: 2_000 };

describe("EsploraBackend over several servers", () => {
  it("reads from the server that is not behind", async () => {
    const behind = await esplora(chainAt(100));
    const current = await esplora(chainAt(120));
    const backend = new EsploraBackend({ urls: [behind.url, current.url], ...options });
    expect(await backend.tipHeight()).toBe(120);
    expect(await backend.transactionStatus(TXID)).toEqual({ state: "confirmed", height: 118 });
    expect(behind.seen.filter((s) => s.path !== "/blocks")).toEqual([]);
  });

  it("leaves a rate-limited server alone and asks the other", async () => {
    const limited = await esplora(() => [429, "slow down", { "retry-after": "30" }]);
    const other = await esplora(chainAt(120));
    const backend = new EsploraBackend({ urls: [limited.url, other.url], ...options });
    for (let i = 0; i < 5; i++) expect(await backend.tipHeight()).toBe(120);
    expect(limited.seen).toHaveLength(1);
  });

  it("broadcasts through every server; 'already in block chain' from one counts as sent", async () => {
    const a = await esplora(chainAt(120));
    const b = await esplora(chainAt(120));
    expect(await new EsploraBackend({ urls: [a.url, b.url], ...options }).broadcast(tx.toHex())).toBe(
      tx.getId(),
    );
    expect([a, b].map((s) => s.seen.filter((r) => r.method === "POST").map((r) => r.body))).toEqual([
      [tx.toHex()],
      [tx.toHex()],
    ]);
    const known = await esplora(() => [
      400,
      'sendrawtransaction RPC error: {"code":-27,"message":"already in block chain"}',
    ]);
    const down = await esplora(() => [503, "unavailable"]);
    const backend = new EsploraBackend({ urls: [known.url, down.url], ...options });
    expect(await backend.broadcast(tx.toHex())).toBe(tx.getId());
  });

  it("sends a URL's credentials as a header", async () => {
    const server = await esplora(chainAt(120));
    const keyed = server.url.replace("http://", "http://user:pw@");
    expect(await new EsploraBackend({ url: keyed }).tipHeight()).toBe(120);
    expect(server.seen[0]?.authorization).toBe(`Basic ${Buffer.from("user:pw").toString("base64")}`);
  });
});

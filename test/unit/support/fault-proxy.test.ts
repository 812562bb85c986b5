/** The fault proxy against a small in-test JSON-RPC node: faults, counts, stale heads, drops, control. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { keccak256 } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_PATH, FaultProxy, type FaultConfig } from "../../support/fault-proxy.js";

interface Received {
  method: string;
  params: unknown;
}

/** A node that answers each method from a table and remembers every call it received. */
class FakeNode {
  readonly received: Received[] = [];
  url = "";
  #server: Server | null = null;

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const parsed = JSON.parse(body) as Received & { id: unknown; jsonrpc?: string };
        const calls = Array.isArray(parsed) ? (parsed as (typeof parsed)[]) : [parsed];
        const replies = calls.map((c) => {
          this.received.push({ method: c.method, params: c.params });
          return `{"jsonrpc":"2.0","id":${JSON.stringify(c.id)},"result":${this.#answer(c.method)}}`;
        });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(Array.isArray(parsed) ? `[${replies.join(",")}]` : replies[0]);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  #answer(method: string): string {
    if (method === "eth_blockNumber") return '"0x64"';
    if (method === "getbalance") return "0.00012345"; // a BTC amount a double cannot hold exactly as written
    return '"ok"';
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}

const node = new FakeNode();
const proxies: FaultProxy[] = [];

beforeAll(() => node.start());
afterAll(() => node.stop());
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.stop()));
  node.received.length = 0;
});

async function proxy(config: Partial<FaultConfig> = {}, seed = 7): Promise<FaultProxy> {
  const p = new FaultProxy(node.url, { seed, config });
  await p.start();
  proxies.push(p);
  return p;
}

let nextId = 1;
const call = (method: string, params: unknown[] = [], jsonrpc = "2.0") => ({
  jsonrpc,
  id: nextId++,
  method,
  params,
});

async function post(
  url: string,
  body: unknown,
  timeoutMs = 5_000,
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe("FaultProxy", () => {
  it("passes calls through unchanged, amounts exactly, and counts each call of a batch", async () => {
    const p = await proxy();
    const single = await post(p.url, call("getbalance", [], "1.0"));
    expect(single.text).toContain('"result":0.00012345');
    const batch = await post(p.url, [call("eth_blockNumber"), call("eth_call"), call("eth_call")]);
    expect(JSON.parse(batch.text)).toHaveLength(3);
    expect(p.counts().eth_call).toMatchObject({ calls: 2, forwarded: 2, faults: 0 });
    expect(p.totals()).toMatchObject({ calls: 4, forwarded: 4 });
    expect(node.received).toHaveLength(4);
    expect(p.lastSeenHead).toBe(100);
  });

  it("injects HTTP 500, 429 with Retry-After in both forms, and connection resets", async () => {
    const p = await proxy({ failRate: 1, faults: { http500: 1 } });
    expect((await post(p.url, call("eth_call"))).status).toBe(500);
    p.configure({ faults: { http429: 1 }, retryAfter: { seconds: 3, form: "seconds" } });
    const limited = await post(p.url, call("eth_call"));
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "3"]);
    p.configure({ retryAfter: { seconds: 60, form: "date" } });
    const dated = Date.parse((await post(p.url, call("eth_call"))).headers.get("retry-after") ?? "");
    expect(dated - Date.now()).toBeGreaterThan(50_000);
    p.configure({ faults: { reset: 1 } });
    await expect(post(p.url, call("eth_call"))).rejects.toThrow();
    expect(p.counts().eth_call).toMatchObject({
      calls: 4,
      forwarded: 0,
      faults: 4,
      byFault: { http500: 1, http429: 2, reset: 1 },
    });
    expect(node.received).toHaveLength(0);
  });

  it("hangs a call until the client gives up, or drops it after hangMs", async () => {
    const p = await proxy({ failRate: 1, faults: { hang: 1 } });
    await expect(post(p.url, call("eth_call"), 300)).rejects.toThrow(/timeout|aborted/i);
    p.configure({ hangMs: 100 });
    const started = Date.now();
    await expect(post(p.url, call("eth_call"))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(p.counts().eth_call?.byFault.hang).toBe(2);
  });

  it("fails single calls of a batch with JSON-RPC errors, only for the methods it is told", async () => {
    const p = await proxy({ failRate: 1, faults: { rpcError: 1 }, methods: ["eth_call"] });
    const replies = JSON.parse((await post(p.url, [call("eth_blockNumber"), call("eth_call")])).text) as {
      result?: string;
      error?: { code: number };
    }[];
    expect(replies[0]?.result).toBe("0x64");
    expect(replies[1]?.error?.code).toBe(-32603);
    const bitcoind = await post(p.url, call("eth_call", [], "1.0"));
    expect(bitcoind.status).toBe(500);
    expect(JSON.parse(bitcoind.text)).toMatchObject({ result: null, error: { code: -28 } });
    expect(p.counts()).toMatchObject({
      eth_blockNumber: { calls: 1, forwarded: 1, faults: 0 },
      eth_call: { calls: 2, forwarded: 0, faults: 2 },
    });
  });

  it("draws the same faults from the same seed, and others from another", async () => {
    const sequence = async (seed: number) => {
      const p = await proxy({ failRate: 0.5, faults: { http500: 1 } }, seed);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await post(p.url, call("eth_call"))).status);
      return statuses;
    };
    const first = await sequence(42);
    expect(await sequence(42)).toEqual(first);
    expect(await sequence(43)).not.toEqual(first);
    const failed = first.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(8);
    expect(failed).toBeLessThan(32);
  });

  it("delays the calls it applies to, and spares the others", async () => {
    const p = await proxy({ delayMs: 150, exceptMethods: ["eth_chainId"] });
    let started = Date.now();
    await post(p.url, call("eth_call"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    started = Date.now();
    await post(p.url, call("eth_chainId"));
    expect(Date.now() - started).toBeLessThan(140);
  });

  it("drops sends: answers with the transaction hash and forwards nothing", async () => {
    const p = await proxy({ dropSends: true });
    const raw = "0x02f86b827a6980843b9aca00";
    const reply = JSON.parse((await post(p.url, call("eth_sendRawTransaction", [raw]))).text) as {
      result: string;
    };
    expect(reply.result).toBe(keccak256(raw));
    expect(node.received).toHaveLength(0);
    expect(p.counts().eth_sendRawTransaction).toMatchObject({ calls: 1, dropped: 1, forwarded: 0 });
  });

  it("serves a stale head: the frozen height, and state reads at it", async () => {
    const p = await proxy();
    expect(p.freezeHead(40)).toBe(40);
    const head = JSON.parse((await post(p.url, call("eth_blockNumber"))).text) as { result: string };
    expect(head.result).toBe("0x28");
    await post(p.url, call("eth_call", [{ to: "0x00" }, "latest"]));
    await post(p.url, call("eth_getBalance", ["0x00"]));
    expect(node.received.map((r) => r.params)).toEqual([
      [{ to: "0x00" }, "0x28"],
      ["0x00", "0x28"],
    ]);
    const ahead = JSON.parse((await post(p.url, call("eth_getBlockByNumber", ["0x29", false]))).text) as {
      result: unknown;
    };
    expect(ahead.result).toBeNull();
    const outOfRange = await post(p.url, call("getblockhash", [41], "1.0"));
    expect([outOfRange.status, JSON.parse(outOfRange.text).error.code]).toEqual([500, -8]);
    expect(p.counts().eth_blockNumber).toMatchObject({ calls: 1, stale: 1, forwarded: 0 });
    p.thawHead();
    expect((JSON.parse((await post(p.url, call("eth_blockNumber"))).text) as { result: string }).result).toBe(
      "0x64",
    );
  });

  it("is configured and read over its control path", async () => {
    const p = await proxy();
    await post(p.url, call("eth_call"));
    const control = `${p.url}${CONTROL_PATH}`;
    const set = await post(control, { failRate: 1, faults: { http500: 1 } });
    expect(JSON.parse(set.text).config).toMatchObject({ failRate: 1 });
    expect((await post(p.url, call("eth_call"))).status).toBe(500);
    const state = (await (await fetch(control)).json()) as {
      counts: Record<string, { calls: number; faults: number }>;
    };
    expect(state.counts.eth_call).toMatchObject({ calls: 2, faults: 1 });
    await fetch(`${control}/reset`, { method: "POST" });
    expect(p.totals().calls).toBe(0);
  });
});

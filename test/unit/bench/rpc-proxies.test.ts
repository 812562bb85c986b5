import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startRpcProxies, type RpcProxies } from "../../bench/load/rpc-proxies.js";

/** A JSON-RPC node answering every call with its method's name. */
async function echoNode(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const call = JSON.parse(body) as { id: number; method: string };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: call.method }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const call = async (url: string, method: string): Promise<unknown> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
  });
  return ((await response.json()) as { result: unknown }).result;
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the load benchmark's RPC proxies", () => {
  for (const ownProcess of [false, true]) {
    it(`count each chain's calls by method, and start again from zero (${ownProcess ? "own process" : "shared"})`, async () => {
      const [one, two] = [await echoNode(), await echoNode()];
      cleanups.push(one.close, two.close);
      const proxies: RpcProxies = await startRpcProxies(
        new Map([
          ["one", one.url],
          ["two", two.url],
        ]),
        { ownProcess, dir: mkdtempSync(join(tmpdir(), "rpc-proxies-")) },
      );
      cleanups.push(() => proxies.stop());
      expect(proxies.child === null).toBe(!ownProcess);
      const [urlOne, urlTwo] = [proxies.urls.get("one")!, proxies.urls.get("two")!];
      expect(await call(urlOne, "eth_blockNumber")).toBe("eth_blockNumber");
      await call(urlOne, "eth_blockNumber");
      await call(urlTwo, "getblockcount");
      const counts = await proxies.counts();
      expect(counts.get("one")?.eth_blockNumber?.calls).toBe(2);
      expect(counts.get("two")?.getblockcount?.calls).toBe(1);
      await proxies.reset();
      expect(await proxies.counts()).toEqual(
        new Map([
          ["one", {}],
          ["two", {}],
        ]),
      );
    }, 60_000);
  }
});

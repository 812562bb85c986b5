/**
 * The EVM client over the endpoint pool, against fake HTTP endpoints (a fetch stand-in): how replies
 * are classified, how sends fan out, and that errors name endpoints without their keys.
 */
import { describe, expect, it } from "vitest";
import { BaseError, RpcRequestError, parseEther } from "viem";
import { createEvmRpc, withOneEndpoint } from "../../../../src/chains/evm/client.js";
import { EvmRpcEndpoint } from "../../../../src/chains/evm/rpc-endpoint.js";
import { EndpointFault } from "../../../../src/chains/rpc/errors.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";

type Reply = { status?: number; body: unknown; headers?: Record<string, string> };
type Handler = (method: string, url: string, headers: Headers) => Reply;

interface Seen {
  url: string;
  method: string;
  authorization: string | null;
}

function fakeFetch(
  handler: Handler,
  seen: Seen[] = [],
  delayMs: (url: string) => number = () => 0,
): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    await new Promise((resolve) => setTimeout(resolve, delayMs(url)));
    const body = JSON.parse(String(init?.body)) as { id: number; method: string };
    const headers = new Headers(init?.headers);
    seen.push({ url, method: body.method, authorization: headers.get("authorization") });
    const reply = handler(body.method, url, headers);
    const text =
      typeof reply.body === "string"
        ? reply.body
        : JSON.stringify({ jsonrpc: "2.0", id: body.id, ...(reply.body as object) });
    return new Response(text, { status: reply.status ?? 200, headers: reply.headers ?? {} });
  }) as typeof fetch;
}

/** The latest block as `eth_getBlockByNumber` answers it (the fields the pool reads), mined just now. */
const latestBlock = (height: number) => ({
  number: `0x${height.toString(16)}`,
  timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}`,
});

const KEYED = "https://user:pass@rpc.example/v3/0123456789abcdefABCDEF?apikey=SECRET";
const SECRETS = [":pass@", "0123456789abcdefABCDEF", "SECRET"];

function endpoint(handler: Handler, seen?: Seen[]): EvmRpcEndpoint {
  return new EvmRpcEndpoint({
    url: KEYED,
    label: "https://rpc.example",
    timeoutMs: 1_000,
    fetchImpl: fakeFetch(handler, seen),
  });
}

function config(rpcUrls: string[]): EvmChainConfig {
  return {
    family: "evm",
    name: "testchain",
    chainId: 31_999,
    rpcUrls,
    minBlockTimeMs: 1_000,
    maxBlockTimeMs: 2_000,
    minConfirmations: 1,
    finalityDepth: 1,
    fillTimelockBlocks: 10,
    bumpAfterMs: 60_000,
    maxFeePerGasWei: parseEther("0.0001"),
    maxHeadLagBlocks: 2,
    rpcTimeoutMs: 1_000,
    assets: [],
  };
}

describe("EvmRpcEndpoint", () => {
  it("sends the URL's credentials as a header, never in the URL", async () => {
    const seen: Seen[] = [];
    await endpoint(() => ({ body: { result: "0x1" } }), seen).request("eth_chainId", []);
    expect(seen[0]?.url).toBe("https://rpc.example/v3/0123456789abcdefABCDEF?apikey=SECRET");
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from("user:pass").toString("base64")}`);
  });

  it("reads HTTP 429 with Retry-After, and rate-limit errors in the body, as rate limits", async () => {
    const limited = await endpoint(() => ({
      status: 429,
      body: "slow down",
      headers: { "retry-after": "7" },
    }))
      .request("eth_call", [])
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(EndpointFault);
    expect(limited).toMatchObject({ kind: "rate-limited", retryAfterMs: 7_000, status: 429 });
    for (const error of [
      { code: -32005, message: "daily request count exceeded, request rate limited" },
      { code: 429, message: "Too Many Requests" },
      { code: -32007, message: "10/second request limit reached" },
    ]) {
      const fault = await endpoint(() => ({ body: { error } }))
        .request("eth_call", [])
        .catch((e: unknown) => e);
      expect(fault).toMatchObject({ name: "EndpointFault", kind: "rate-limited" });
    }
  });

  it("reads server errors and a node without the block as faults, and other errors as answers", async () => {
    const faults = [
      { status: 500, body: "<html>Internal Server Error</html>" },
      { status: 503, body: "" },
      { body: { error: { code: -32000, message: "header not found" } } },
      { body: { error: { code: -32603, message: "internal error" } } },
      { body: "not json" },
    ];
    for (const reply of faults) {
      const error = await endpoint(() => reply)
        .request("eth_getBlockByNumber", [])
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(reply)).toBeInstanceOf(EndpointFault);
    }
    const answers = [
      { code: 3, message: "execution reverted: nope", data: "0x08c379a0" },
      { code: -32000, message: "nonce too low" },
      { code: -32005, message: "query returned more than 10000 results" },
    ];
    for (const error of answers) {
      const answer = await endpoint(() => ({ body: { error } }))
        .request("eth_call", [])
        .catch((e: unknown) => e);
      expect(answer).toBeInstanceOf(RpcRequestError);
      expect(answer).toMatchObject({ code: error.code });
      const text = `${(answer as Error).message}\n${(answer as Error).stack ?? ""}`;
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    }
  });
});

describe("the EVM client over several endpoints", () => {
  const urls = ["https://a.example/rpc", "https://b.example/rpc"];

  it("sends a raw transaction through every endpoint and takes 'already known' as an answer", async () => {
    const seen: Seen[] = [];
    const handler: Handler = (method, url) => {
      if (method === "eth_blockNumber") return { body: { result: "0x10" } };
      if (url.startsWith("https://a.")) return { status: 502, body: "bad gateway" };
      return { body: { error: { code: -32000, message: "already known" } } };
    };
    const { client } = createEvmRpc(config(urls), { fetchImpl: fakeFetch(handler, seen) });
    const error = await client
      .sendRawTransaction({ serializedTransaction: "0x02f86b827cff8084" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaseError);
    expect((error as BaseError).details).toBe("already known");
    const sends = seen.filter((s) => s.method === "eth_sendRawTransaction").map((s) => new URL(s.url).host);
    expect(new Set(sends)).toEqual(new Set(["a.example", "b.example"]));
  });

  it("reads from the endpoint that is not behind", async () => {
    const handler: Handler = (method, url) => {
      const behind = url.startsWith("https://a.");
      if (method === "eth_blockNumber") return { body: { result: behind ? "0x10" : "0x20" } };
      if (method === "eth_getBlockByNumber") return { body: { result: latestBlock(behind ? 0x10 : 0x20) } };
      return { body: { result: behind ? "0xaa" : "0xbb" } };
    };
    const { client, pool } = createEvmRpc(config(urls), { fetchImpl: fakeFetch(handler) });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(32n);
    expect(await client.getBalance({ address: "0x0000000000000000000000000000000000000001" })).toBe(0xbbn);
    expect(pool.status().map((s) => [s.endpoint, s.current, s.lagBlocks])).toEqual([
      ["https://a.example", false, 16],
      ["https://b.example", true, 0],
    ]);
  });

  it("keeps a series of reads on one endpoint inside withOneEndpoint, even when it turns slow", async () => {
    const seen: Seen[] = [];
    const handler: Handler = (method) => ({
      body: {
        result:
          method === "eth_blockNumber"
            ? "0x20"
            : method === "eth_getBlockByNumber"
              ? latestBlock(0x20)
              : "0x1",
      },
    });
    let slowHost = "";
    const delay = (url: string) => (new URL(url).host === slowHost ? 150 : 0);
    const { client } = createEvmRpc(config(urls), { fetchImpl: fakeFetch(handler, seen, delay) });
    await client.getBlockNumber({ cacheTime: 0 });
    const balance = (i: number) => client.getBalance({ address: `0x${String(i).padStart(40, "0")}` });
    const hostsOf = () => seen.filter((s) => s.method === "eth_getBalance").map((s) => new URL(s.url).host);
    await withOneEndpoint(client, "balances", async () => {
      await balance(1);
      slowHost = hostsOf()[0] ?? "";
      for (let i = 2; i <= 6; i++) await balance(i);
    });
    expect(hostsOf()).toEqual(Array(6).fill(slowHost));
    // Outside the scope the slow endpoint is soon left for the other.
    for (let i = 7; i <= 12; i++) await balance(i);
    expect(hostsOf().slice(6)).toContain(urls.map((u) => new URL(u).host).find((h) => h !== slowHost));
  });

  it("names endpoints only by their redacted URLs when none answers", async () => {
    const { client } = createEvmRpc(config([KEYED, "https://other.example/v2/abcDEFghiJKLmnoPQRstuVWX"]), {
      fetchImpl: fakeFetch(() => ({ status: 500, body: `upstream ${KEYED} failed` })),
      pool: { maxAttempts: 3 },
    });
    const error = await client.getChainId().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "EvmRpcUnavailableError" });
    const text = `${(error as Error).message}\n${(error as Error).stack ?? ""}`;
    for (const secret of [...SECRETS, "abcDEFghiJKLmnoPQRstuVWX"]) expect(text).not.toContain(secret);
    expect(text).toContain("https://rpc.example");
    expect(text).not.toContain("rpc.example/v3");
  });
});

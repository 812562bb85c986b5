import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BitcoinRpcClient,
  BitcoinRpcError,
  BitcoinRpcTransportError,
  btcToSats,
  parseRpcJson,
  satsToBtc,
} from "htlc-solver/chains/bitcoin/rpc.js";
import { freePort } from "htlc-solver/util/free-port.js";
import {
  startBitcoinForTests,
  type BitcoinTestNode,
} from "../../../../../../../test/support/bitcoin-node.js";

describe("BTC amounts without floating point", () => {
  it("converts decimal text to sats exactly", () => {
    expect(btcToSats("0.00000001")).toBe(1n);
    expect(btcToSats("50.00000000")).toBe(5_000_000_000n);
    expect(btcToSats("20999999.99999999")).toBe(2_099_999_999_999_999n);
    expect(btcToSats("0.1")).toBe(10_000_000n);
    expect(btcToSats("-1.5")).toBe(-150_000_000n);
    expect(btcToSats("1e-05")).toBe(1_000n);
    expect(btcToSats("2.5E+1")).toBe(2_500_000_000n);
    expect(btcToSats(3)).toBe(300_000_000n);
    expect(btcToSats("0.000000010")).toBe(1n);
  });

  it("refuses amounts finer than a satoshi or that are not numbers", () => {
    expect(() => btcToSats("0.000000001")).toThrow(/more than 8 decimal places/);
    expect(() => btcToSats("abc")).toThrow(/not a decimal number/);
    expect(() => btcToSats(0.1)).toThrow(/not an exact integer/);
  });

  it("formats sats as bitcoind prints BTC", () => {
    expect(satsToBtc(1n)).toBe("0.00000001");
    expect(satsToBtc(5_000_000_000n)).toBe("50.00000000");
    expect(satsToBtc(-150_000_000n)).toBe("-1.50000000");
  });

  it("parses JSON keeping the text of fractional numbers and of huge integers", () => {
    const parsed = parseRpcJson(
      '{"a":0.30000000,"b":[1,-2.5e-3],"c":"x\\"0.1","d":12345678901234567890,"e":7}',
    );
    expect(parsed).toEqual({
      a: "0.30000000",
      b: [1, "-2.5e-3"],
      c: 'x"0.1',
      d: "12345678901234567890",
      e: 7,
    });
  });
});

describe("BitcoinRpcClient", () => {
  let btc: BitcoinTestNode;
  beforeAll(async () => {
    btc = await startBitcoinForTests();
  });
  afterAll(async () => {
    await btc.stop();
  });

  it("carries bitcoind's code, message and the method name in errors", async () => {
    const error = await btc.rpc.sendRawTransaction("00").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BitcoinRpcError);
    expect(error).toMatchObject({
      method: "sendrawtransaction",
      code: -22,
      rpcMessage: "TX decode failed. Make sure the tx has at least one input.",
    });
  });

  it("reports bad credentials and unreachable nodes as transport errors", async () => {
    const wrong = new BitcoinRpcClient({ url: btc.rpcUrl, user: btc.rpcUser, password: "wrong" });
    const unauthorized = await wrong.getBlockCount().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(BitcoinRpcTransportError);
    expect(unauthorized).toMatchObject({ status: 401, method: "getblockcount" });
    const port = await freePort();
    const nowhere = new BitcoinRpcClient({ url: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
    const unreachable = await nowhere.getBlockCount().catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ name: "BitcoinRpcTransportError", status: null });
  });

  it("takes credentials from the URL and keeps them out of it", async () => {
    const url = new URL(btc.rpcUrl);
    url.username = btc.rpcUser;
    url.password = btc.rpcPassword;
    const client = new BitcoinRpcClient({ url: url.toString() });
    expect(client.url).not.toContain(btc.rpcPassword);
    expect(await client.getBlockCount()).toBeGreaterThanOrEqual(0);
  });

  it("serves named parameters and batches like bitcoind", async () => {
    const auth = `Basic ${Buffer.from(`${btc.rpcUser}:${btc.rpcPassword}`).toString("base64")}`;
    const post = async (body: unknown): Promise<{ status: number; json: unknown }> => {
      const res = await fetch(btc.rpcUrl, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    };
    const named = await post({ jsonrpc: "1.0", id: "n", method: "getblockhash", params: { height: 0 } });
    expect(named.json).toMatchObject({ result: await btc.rpc.getBlockHash(0), error: null, id: "n" });
    const batch = await post([
      { jsonrpc: "1.0", id: 1, method: "getblockcount", params: [] },
      { jsonrpc: "1.0", id: 2, method: "nosuchmethod", params: [] },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.json).toMatchObject([
      { id: 1, error: null },
      { id: 2, result: null, error: { code: -32601, message: "Method not found" } },
    ]);
    const missing = await post({ jsonrpc: "1.0", id: 3, method: "nosuchmethod", params: [] });
    expect(missing.status).toBe(404);
  });
});

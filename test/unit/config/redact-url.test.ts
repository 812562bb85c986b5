import { describe, expect, it } from "vitest";
import { redactUrl, redactUrlsDeep, redactUrlsInText } from "../../../src/config/redact-url.js";

const KEYED = "https://user:pass@rpc.example/v3/0123456789abcdefABCDEF?apikey=SECRET";
const SECRETS = ["pass", "0123456789abcdefABCDEF", "SECRET"];

describe("redactUrl", () => {
  it.each([
    [KEYED, "https://rpc.example"],
    // Keys no pattern tells from a path: short, lower-case, a word.
    ["https://eth.example.com/v2/abcDEFghiJKLmnoPQRstuVWX", "https://eth.example.com"],
    ["https://name.quiknode.pro/k3y123/", "https://name.quiknode.pro"],
    ["https://rpc.example/ethereum-mainnet-archive", "https://rpc.example"],
    ["https://rpc.example/#token", "https://rpc.example"],
    ["https://mempool.space/testnet4/api", "https://mempool.space"],
    // The port stays: it tells two nodes on one host apart.
    ["http://user:pw@127.0.0.1:18443/wallet/w?x=1", "http://127.0.0.1:18443"],
    // Written like a URL but not one the parser takes: still cut after the host.
    ["http://:80/k3y/path", "http://:80"],
    ["./data/journal.sqlite", "./data/journal.sqlite"],
    ["bitcoin_regtest:btc", "bitcoin_regtest:btc"],
  ])("%s -> %s", (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe("redactUrlsInText", () => {
  it("redacts every URL in prose, keeping the punctuation around it", () => {
    const text = `request to ${KEYED}, then (see ${KEYED}). Done`;
    const redacted = redactUrlsInText(text);
    for (const secret of SECRETS) expect(redacted).not.toContain(secret);
    expect(redacted).toBe("request to https://rpc.example, then (see https://rpc.example). Done");
  });

  it("redacts URLs inside JSON text and stack traces", () => {
    const json = JSON.stringify({ message: `failed: ${KEYED}` });
    for (const secret of SECRETS) expect(redactUrlsInText(json)).not.toContain(secret);
    expect(JSON.parse(redactUrlsInText(json))).toEqual({ message: "failed: https://rpc.example" });
    const stack = `Error: HTTP request failed.\n\nURL: ${KEYED}\n    at fetch (node:internal)`;
    expect(redactUrlsInText(stack)).toContain("URL: https://rpc.example\n    at fetch");
  });

  it("is idempotent: a redacted URL stays as it is", () => {
    const once = redactUrlsInText(`see ${KEYED}] and (${KEYED})`);
    expect(redactUrlsInText(once)).toBe(once);
    expect(once).toBe("see https://rpc.example] and (https://rpc.example)");
  });

  it("returns text without URLs unchanged", () => {
    const text = "nonce too low: next nonce 5, tx nonce 4";
    expect(redactUrlsInText(text)).toBe(text);
  });
});

describe("redactUrlsDeep", () => {
  it("redacts strings at any depth, copies plain data and leaves the input untouched", () => {
    const shared = { url: KEYED };
    const input = { a: [shared, { b: shared }], n: 1, keep: true };
    const out = redactUrlsDeep(input);
    const text = JSON.stringify(out);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(input.a[0]).toBe(shared);
    expect(shared.url).toBe(KEYED);
  });

  it("cuts cycles instead of following them", () => {
    const loop: Record<string, unknown> = { url: KEYED };
    loop.self = loop;
    const out = redactUrlsDeep(loop) as Record<string, unknown>;
    expect(out.url).not.toContain("SECRET");
    expect(out.self).toBe("[Circular]");
  });
});

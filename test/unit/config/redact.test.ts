import { describe, expect, it } from "vitest";
import { CHAIN_FAMILIES } from "../../../src/chains/registry.js";
import { loadConfig } from "../../../src/config/load.js";
import { redactConfig } from "../../../src/config/redact.js";
import { redactUrl } from "../../../src/config/redact-url.js";
import { SECRETS, TEST_ENV, validSettings } from "./fixture.js";

describe("redactConfig", () => {
  const config = loadConfig(CHAIN_FAMILIES, { overrides: validSettings(), env: TEST_ENV });
  const text = JSON.stringify(redactConfig(config));

  it.each(Object.entries(SECRETS))("never contains the %s", (_name, secret) => {
    expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain(secret.replace(/^0x/, "").toLowerCase());
  });

  it("marks what it removed and keeps the rest readable", () => {
    const view = redactConfig(config) as {
      service: { url: string; appId: string };
      solver: { keys: { evm: string; bitcoin: string; solana: string } };
      chains: { rpcUrls?: string[]; rpcPassword?: string; rpcUser?: string }[];
      strategies: { minAmount: unknown }[];
    };
    expect(view.service).toEqual({ url: "https://api.example.org", appId: "[redacted]" });
    expect(view.solver.keys).toEqual({
      evm: "[redacted]",
      bitcoin: "[redacted]",
      solana: "",
      starknet: "",
      sui: "",
    });
    expect(view.chains[0]?.rpcUrls).toEqual(["http://127.0.0.1:8545", "https://rpc.example.org"]);
    expect(view.chains[1]).toMatchObject({ rpcUser: "solver", rpcPassword: "[redacted]" });
    expect(view.strategies[0]?.minAmount).toBe("10000");
  });

  it("is plain JSON: bigints became decimal strings", () => {
    expect(() => JSON.stringify(redactConfig(config))).not.toThrow();
    expect(JSON.parse(text).limits.maxInFlightUsdCents).toBe("1000000");
  });
});

describe("redactUrl", () => {
  it.each([
    ["http://user:pass@127.0.0.1:18443/wallet/w", "http://127.0.0.1:18443"],
    ["https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef", "https://mainnet.infura.io"],
    ["https://rpc.example.org/?apikey=abc&x=1", "https://rpc.example.org"],
    ["http://127.0.0.1:8545", "http://127.0.0.1:8545"],
    ["./data/journal.sqlite", "./data/journal.sqlite"],
  ])("%s -> %s", (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

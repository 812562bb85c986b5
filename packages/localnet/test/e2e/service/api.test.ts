/** The read endpoints, authentication, quote aggregation and the error envelope, on real anvil chains. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainAssetInfo, ChainInfo, QuoteItem } from "htlc-solver/orderbook/types.js";
import type { LocalService } from "../../../src/service/service.js";
import { startTestChain, type TestChain } from "./support/chains.js";
import { startQuoteSolver, type QuoteSolver } from "./support/quote-solver.js";
import { api, ok, serviceConfig, startService } from "./support/service.js";

let alpha: TestChain;
let beta: TestChain;
let good: QuoteSolver;
let better: QuoteSolver;
let service: LocalService;

beforeAll(async () => {
  [alpha, beta] = await Promise.all([startTestChain("alpha", 31_101), startTestChain("beta", 31_102)]);
  good = await startQuoteSolver("a1".repeat(32), 9_800n);
  better = await startQuoteSolver("b2".repeat(32), 9_900n);
  service = await startService(serviceConfig([{ chain: alpha }, { chain: beta }], [good, better]));
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([good?.stop(), better?.stop(), alpha?.anvil.stop(), beta?.anvil.stop()]);
});

describe("authentication", () => {
  it("refuses a request without the service-app-id header with 401 and the envelope", async () => {
    const answer = await api(service, "GET", "/v2/chains", undefined, null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ status: "Error", error: "missing or unknown service-app-id header" });
  });

  it("refuses an unknown app id, also on /health", async () => {
    expect((await api(service, "GET", "/health", undefined, "cd".repeat(32))).status).toBe(401);
  });
});

describe("chains, assets, health", () => {
  it("lists both chains with schemas, timelocks and assets", async () => {
    const chains = await ok<ChainInfo[]>(service, "GET", "/v2/chains");
    expect(chains.map((chain) => chain.name)).toEqual(["alpha", "beta"]);
    const first = chains[0]!;
    expect(first).toMatchObject({
      chain: "alpha",
      id: "31101",
      family: "evm",
      explorer_url: "https://explorer.invalid/alpha",
      confirmation_target: 1,
      source_timelock: 100,
      destination_timelock: 50,
      supported_htlc_schemas: ["evm:htlc", "evm:htlc_erc20"],
      supported_token_schemas: ["evm:erc20"],
      htlc: { schema: "evm:htlc_erc20", address: alpha.htlc },
      token: { schema: "evm:erc20" },
    });
    expect(first.assets.map((asset) => asset.id)).toEqual(["alpha:usdc", "alpha:eth"]);
    expect(first.assets[1]).toMatchObject({
      token_address: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      htlc_address: alpha.nativeHtlc,
      fiat_value: "3000.5",
      decimals: 18,
    });
  });

  it("lists assets, filtered by chain; an unknown chain is a 400", async () => {
    expect((await ok<ChainAssetInfo[]>(service, "GET", "/v2/assets")).length).toBe(4);
    const beta = await ok<ChainAssetInfo[]>(service, "GET", "/v2/assets?chain=beta");
    expect(beta.map((asset) => [asset.id, asset.name, asset.chain_id])).toEqual([
      ["beta:usdc", "USD Coin", "31102"],
      ["beta:eth", "Ether", "31102"],
    ]);
    const answer = await api(service, "GET", "/v2/assets?chain=gamma");
    expect(answer).toEqual({
      status: 400,
      body: { status: "Error", error: "chain gamma is not a supported chain" },
    });
  });

  it("reports each chain's tip on /health", async () => {
    const health = await ok<{ status: string; chains: Record<string, number> }>(service, "GET", "/health");
    expect(health.status).toBe("healthy");
    expect(health.chains.alpha).toBe(Number(await alpha.pub.getBlockNumber()));
    expect(health.chains.beta).toBe(Number(await beta.pub.getBlockNumber()));
  });
});

describe("quote", () => {
  it("asks every solver and sorts the answers by destination amount, best first", async () => {
    const quotes = await ok<QuoteItem[]>(
      service,
      "GET",
      "/v2/quote?from=alpha:usdc&to=beta:usdc&from_amount=1000000",
    );
    expect(quotes.map((quote) => [quote.solver_id, quote.destination.amount])).toEqual([
      [better.id, "990000"],
      [good.id, "980000"],
    ]);
    const asked = better.calls.at(-1)!;
    expect([asked.get("from"), asked.get("to"), asked.get("from_amount")]).toEqual([
      "alpha:usdc",
      "beta:usdc",
      "1000000",
    ]);
  });

  it("passes the requested slippage on to the solvers and keeps their own slippage in the items", async () => {
    const quotes = await ok<QuoteItem[]>(
      service,
      "GET",
      "/v2/quote?from=alpha:usdc&to=beta:usdc&from_amount=5000&slippage=50",
    );
    expect(quotes.map((quote) => quote.slippage)).toEqual([0, 0]);
    expect(better.calls.at(-1)!.get("slippage")).toBe("50");
    expect(good.calls.at(-1)!.get("slippage")).toBe("50");
  });

  it("keeps the quotes of the solvers that answer", async () => {
    better.refuse = "inventory too low";
    try {
      const quotes = await ok<QuoteItem[]>(
        service,
        "GET",
        "/v2/quote?from=alpha:usdc&to=beta:usdc&from_amount=5000",
      );
      expect(quotes.map((quote) => quote.solver_id)).toEqual([good.id]);
    } finally {
      better.refuse = null;
    }
  });

  it("answers 404 naming the pair when no solver quotes it", async () => {
    good.refuse = better.refuse = "pair not supported";
    try {
      const answer = await api(service, "GET", "/v2/quote?from=alpha:eth&to=beta:usdc&from_amount=5000");
      expect(answer).toEqual({
        status: 404,
        body: { status: "Error", error: "no quote for alpha:eth -> beta:usdc" },
      });
    } finally {
      good.refuse = better.refuse = null;
    }
  });

  it.each([
    ["to=beta:usdc&from_amount=1", "query parameter from is required"],
    ["from=alpha:usdc&from_amount=1", "query parameter to is required"],
    [
      "from=alpha:usdc&to=beta:usdc",
      "from_amount must be a decimal string of smallest units greater than 0, got nothing",
    ],
    [
      "from=alpha:usdc&to=beta:usdc&from_amount=1.5",
      'from_amount must be a decimal string of smallest units greater than 0, got "1.5"',
    ],
    [
      "from=alpha:usdc&to=beta:usdc&from_amount=0",
      'from_amount must be a decimal string of smallest units greater than 0, got "0"',
    ],
    ["from=alpha:doge&to=beta:usdc&from_amount=5000", "from alpha:doge is not a supported asset"],
    ["from=alpha:usdc&to=beta:doge&from_amount=5000", "to beta:doge is not a supported asset"],
    ["from=alpha:usdc&to=alpha:usdc&from_amount=5000", "from and to are both alpha:usdc"],
    [
      "from=alpha:usdc&to=beta:usdc&from_amount=999",
      "from_amount 999 is outside 1000..1000000000000 for alpha:usdc",
    ],
    [
      "from=alpha:usdc&to=beta:usdc&from_amount=5000&slippage=x",
      'slippage must be an integer number of basis points from 0 to 10000, got "x"',
    ],
  ])("answers 400 for %s", async (query, error) => {
    const answer = await api(service, "GET", `/v2/quote?${query}`);
    expect(answer).toEqual({ status: 400, body: { status: "Error", error } });
  });
});

describe("routing", () => {
  it("answers 404 for an unknown endpoint and 405 for a wrong method, in the envelope", async () => {
    expect(await api(service, "GET", "/v2/nothing")).toEqual({
      status: 404,
      body: { status: "Error", error: "unknown endpoint GET /v2/nothing" },
    });
    expect(await api(service, "DELETE", "/v2/chains")).toEqual({
      status: 405,
      body: { status: "Error", error: "method DELETE is not allowed on /v2/chains" },
    });
  });

  it("answers 400 for a body that is not JSON", async () => {
    expect(await api(service, "POST", "/v2/orders", "{not json")).toEqual({
      status: 400,
      body: { status: "Error", error: "request body is not valid JSON" },
    });
  });
});

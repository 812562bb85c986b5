/** The service's quote requests against the solver's real quote endpoint, signed when it has the secret. */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServiceSolverConfig } from "../../../src/service/config.js";
import { requestSolverQuote } from "../../../src/service/quotes/solver-client.js";
import { createPricing } from "htlc-solver/pricing/pricing.js";
import { startQuoteServer, type QuoteServer } from "htlc-solver/pricing/quote-server.js";
import {
  BTC,
  ETH,
  MemoryBalances,
  NO_LIVE_PRICES,
  PRICES,
  SOLVER_ID,
  USDC,
  strategy,
} from "../../../../../test/unit/pricing/fixtures.js";
import { LOCALNET_NETWORK_FEES } from "../../../src/localnet-config.js";

const SECRET = "c4".repeat(24);
let server: QuoteServer;
const FREE = { perTransaction: 0n, perAction: 0n };

beforeAll(async () => {
  const pricing = createPricing(
    {
      solver: { id: SOLVER_ID },
      chains: [
        { name: USDC.chain, family: "evm", assets: [USDC, ETH] },
        { name: BTC.chain, family: "evm", assets: [BTC] },
      ],
      fixedPrices: PRICES,
      prices: NO_LIVE_PRICES,
      inventoryCurves: {},
      strategies: [strategy(BTC, USDC)],
      limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n },
      networkFees: LOCALNET_NETWORK_FEES,
    },
    {
      balances: new MemoryBalances(new Map([[USDC.id, 10n ** 12n]])),
      committed: () => 0n,
      // Chains whose transactions cost nothing: this test is about the service's client.
      feeEstimators: [USDC.chain, BTC.chain].map((chain) => ({
        chain,
        networkFees: () => Promise.resolve({ fill: FREE, redeem: FREE, refund: FREE }),
      })),
      batchSizes: () => new Map(),
    },
  );
  await pricing.start();
  server = await startQuoteServer({
    host: "127.0.0.1",
    port: 0,
    auth: { secret: SECRET, maxClockSkewMs: 30_000 },
    quote: pricing.quote,
    logger: pino({ level: "silent" }),
  });
});

afterAll(() => server?.stop());

function solver(quoteSecret?: string): LocalServiceSolverConfig {
  return {
    id: SOLVER_ID,
    quoteUrl: `${server.url}/quote`,
    ...(quoteSecret === undefined ? {} : { quoteSecret }),
    addresses: { evm: "0x" + "00".repeat(20) },
  };
}

const request = { from: BTC.id, to: USDC.id, fromAmount: 100_000_000n, slippage: 50 };

describe("requestSolverQuote against a solver that requires signed requests", () => {
  it("signs with the solver's secret and gets the quote, again and again", async () => {
    for (let i = 0; i < 3; i++) {
      const outcome = await requestSolverQuote(solver(SECRET), request, 3_000);
      expect(outcome).toMatchObject({ kind: "quote", quote: { destination: { asset: USDC.id } } });
    }
  });

  it("is refused without the secret, or with another", async () => {
    expect(await requestSolverQuote(solver(), request, 3_000)).toEqual({
      kind: "refused",
      reason: expect.stringMatching(/^missing_signature: /),
    });
    expect(await requestSolverQuote(solver("d5".repeat(24)), request, 3_000)).toEqual({
      kind: "refused",
      reason: "bad_signature: the signature does not match the request",
    });
  });
});

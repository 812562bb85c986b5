/**
 * The load benchmark's own code path with a small N: every swap completes and every figure it prints is
 * present and sane. The figures themselves are judged in `npm run bench:load`, not here: a shared
 * machine makes timings too noisy for a test.
 */
import { describe, expect, it } from "vitest";
import { runLoad } from "../../bench/load/run-load.js";

const ORDERS = 20;
const BURST = 100;

describe("load benchmark (smoke)", () => {
  it(`drives ${ORDERS} swaps through the service to completion and reports every figure`, async () => {
    // The service in its own process: the benchmark's less usual set-up is the one CI runs.
    const figures = await runLoad({
      orders: ORDERS,
      quoteBurst: BURST,
      timeoutMs: 60_000,
      serviceProcess: true,
    });

    expect(figures.problems).toEqual([]);
    expect(figures.created).toBe(ORDERS);
    expect(figures.completed).toBe(ORDERS);

    // Every swap's fill was seen, after its source was confirmed and within the run.
    expect(figures.fillLatencyBlocks.count).toBe(ORDERS);
    // Half the fills land within a few blocks of the confirmation (1 in the benchmark's runs); none is
    // left for the whole run.
    expect(figures.fillLatencyBlocks.p50).toBeLessThanOrEqual(5);
    expect(figures.fillLatencyBlocks.max).toBeLessThan(60);
    expect(figures.initiateToRedeemS.count).toBe(ORDERS);
    expect(figures.initiateToRedeemS.p50).toBeGreaterThan(0);
    expect(figures.initiateToRedeemS.max).toBeLessThan(90);

    // Quotes through the service: all answered, none near the service's 3 s limit.
    expect(figures.burst.requests).toBe(BURST);
    expect(figures.burst.answered).toBe(BURST);
    expect(figures.burst.timeouts).toBe(0);
    expect(figures.burst.latencyMs.p99).toBeLessThan(3_000);
    for (const endpointBurst of [figures.coldEndpointBurst, figures.endpointBurst]) {
      expect(endpointBurst.requests).toBe(BURST);
      expect(endpointBurst.answered).toBe(BURST);
      expect(endpointBurst.timeouts).toBe(0);
    }
    expect(figures.orderQuotes.answered).toBe(ORDERS);
    expect(figures.orderQuotes.answeredInTimeShare).toBe(1);
    expect(figures.creations.badGateway).toBe(0);
    expect(figures.creations.createdInTimeShare).toBe(1);

    // Counted at the proxies: each chain was read for the orders it carried (the benchmark's swaps
    // leave the localnet's Solana chain out).
    const carried = figures.rpc.filter((c) => c.sides > 0);
    expect(carried.map((c) => c.chain).sort()).toEqual(
      ["arbitrum_localnet", "bitcoin_regtest", "ethereum_localnet"].sort(),
    );
    for (const chain of carried) {
      expect(chain.sides).toBeGreaterThan(0);
      expect(chain.perSide).toBeGreaterThan(0);
      expect(chain.perCompletedOrder).toBeGreaterThan(0);
    }

    // The solver's own process did the work and journaled it.
    expect(figures.solverCpuMs).toBeGreaterThan(0);
    expect(figures.cpuMsPerCompletedOrder).toBeGreaterThan(0);
    expect(figures.rounds).toBeGreaterThan(0);
    expect(figures.journalBytes).toBeGreaterThan(0);
    // The service ran as its own process and served the swaps.
    expect(figures.serviceCpuMs).toBeGreaterThan(0);
  }, 150_000);
});

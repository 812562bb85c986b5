import { describe, expect, it } from "vitest";
import { SolverMetrics } from "../../../src/ops/metrics.js";

describe("SolverMetrics", () => {
  it("declares every solver metric on its own registry", async () => {
    const metrics = new SolverMetrics({ processMetrics: false });
    metrics.setInventory("ethereum:wbtc", 250_000_000n);
    metrics.setInFlight("ethereum:wbtc", 1_000n);
    metrics.setChainTip("bitcoin", 840_000n);
    metrics.markPoll(new Date("2030-01-01T00:00:00Z"));
    const text = await metrics.metrics();
    for (const name of [
      "orders_seen_total",
      "actions_total",
      "refusals_total",
      "tx_attempts_total",
      "inventory",
      "in_flight",
      "chain_tip",
      "last_poll_timestamp_seconds",
      "action_duration_seconds",
    ]) {
      expect(text).toContain(`# TYPE solver_${name} `);
    }
    expect(text).toContain('solver_inventory{asset="ethereum:wbtc"} 250000000');
    expect(text).toContain('solver_in_flight{asset="ethereum:wbtc"} 1000');
    expect(text).toContain('solver_chain_tip{chain="bitcoin"} 840000');
    expect(text).toContain("solver_last_poll_timestamp_seconds 1893456000");
  });

  it("times every quote request and counts, by reason, those answered without a quote", async () => {
    const metrics = new SolverMetrics({ processMetrics: false });
    metrics.recordQuoteBatch({
      durations: new Map([
        ["given", [0.002]],
        ["refused", [0.001, 0.001]],
      ]),
      rejections: new Map([["refused", new Map([["exposure_limit", 2]])]]),
    });
    const text = await metrics.metrics();
    expect(text).toContain('solver_quote_duration_seconds_count{outcome="given"} 1');
    expect(text).toContain('solver_quote_duration_seconds_count{outcome="refused"} 2');
    expect(text).toContain('solver_quote_rejections_total{outcome="refused",reason="exposure_limit"} 2');
    expect(text).not.toContain('solver_quote_rejections_total{outcome="given"');
  });

  it("keeps two instances apart and adds process metrics by default", async () => {
    const first = new SolverMetrics();
    const second = new SolverMetrics({ prefix: "other_", processMetrics: false });
    first.ordersSeen.inc();
    expect(await first.metrics()).toContain("solver_process_cpu_user_seconds_total");
    expect(await first.metrics()).toContain("solver_orders_seen_total 1");
    expect(await second.metrics()).toContain("other_orders_seen_total 0");
    expect(await second.metrics()).not.toContain("process_cpu");
  });
});

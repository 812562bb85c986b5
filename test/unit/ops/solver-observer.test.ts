import { describe, expect, it } from "vitest";
import { SolverMetrics } from "../../../src/ops/metrics.js";
import { combineObservers, MetricsObserver } from "../../../src/ops/solver-observer.js";
import type { RunnerObserver } from "../../../src/solver/observer.js";

describe("MetricsObserver", () => {
  it("turns every runner report into its metric", async () => {
    const metrics = new SolverMetrics({ processMetrics: false });
    const observer = new MetricsObserver(metrics);
    observer.orderSeen("o1");
    observer.orderSeen("o2");
    observer.action("arbitrum", "fill", "sent");
    observer.action("arbitrum", "fill", "satisfied");
    observer.decision("refuse", "quote_mismatch");
    observer.decision("wait", "source_confirmations");
    observer.attempt("ethereum", "rebroadcast");
    observer.tip("ethereum", 1234n);
    observer.polled(Date.parse("2030-01-01T00:00:00Z"));
    const text = await metrics.metrics();
    expect(text).toContain("solver_orders_seen_total 2");
    expect(text).toContain('solver_actions_total{chain="arbitrum",kind="fill",outcome="sent"} 1');
    expect(text).toContain('solver_actions_total{chain="arbitrum",kind="fill",outcome="satisfied"} 1');
    expect(text).toContain('solver_decisions_total{outcome="refuse",reason="quote_mismatch"} 1');
    expect(text).toContain('solver_decisions_total{outcome="wait",reason="source_confirmations"} 1');
    expect(text).toContain('solver_refusals_total{reason="quote_mismatch"} 1');
    expect(text).not.toContain('solver_refusals_total{reason="source_confirmations"}');
    expect(text).toContain('solver_tx_attempts_total{chain="ethereum",state="rebroadcast"} 1');
    expect(text).toContain('solver_chain_tip{chain="ethereum"} 1234');
    expect(text).toContain("solver_last_poll_timestamp_seconds 1893456000");
  });
});

describe("combineObservers", () => {
  it("tells each observer everything, in order", () => {
    const heard: string[] = [];
    const recorder = (name: string): RunnerObserver => ({
      orderSeen: (id) => heard.push(`${name} seen ${id}`),
      action: (chain, kind, outcome) => heard.push(`${name} ${chain} ${kind} ${outcome}`),
      decision: (outcome, reason) => heard.push(`${name} ${outcome} ${reason}`),
      attempt: (chain, state) => heard.push(`${name} ${chain} ${state}`),
      tip: (chain, height) => heard.push(`${name} ${chain} tip ${height}`),
      polled: (at) => heard.push(`${name} polled ${at}`),
    });
    const both = combineObservers(recorder("a"), recorder("b"));
    both.orderSeen("o");
    both.tip("btc", 5n);
    both.polled(7);
    expect(heard).toEqual(["a seen o", "b seen o", "a btc tip 5", "b btc tip 5", "a polled 7", "b polled 7"]);
  });
});

/**
 * Turns what the runner reports into the solver's Prometheus metrics, and lets several observers (metrics,
 * the per-round probe, a caller's own) listen to one runner.
 */
import type { ActionKind, AttemptState } from "../chains/chain.js";
import type { ActionOutcome, RunnerObserver } from "../solver/observer.js";
import type { SolverMetrics } from "./metrics.js";

export class MetricsObserver implements RunnerObserver {
  constructor(private readonly metrics: SolverMetrics) {}

  orderSeen(_orderId: string): void {
    this.metrics.ordersSeen.inc();
  }

  action(chain: string, kind: ActionKind, outcome: ActionOutcome, seconds?: number): void {
    this.metrics.recordAction(chain, kind, outcome, seconds);
  }

  decision(outcome: "refuse" | "wait", reason: string): void {
    this.metrics.decisions.inc({ outcome, reason });
    if (outcome === "refuse") this.metrics.refusals.inc({ reason });
  }

  attempt(chain: string, state: AttemptState | "bumped" | "rebroadcast"): void {
    this.metrics.txAttempts.inc({ chain, state });
  }

  tip(chain: string, height: bigint): void {
    this.metrics.setChainTip(chain, height);
  }

  polled(atMs: number): void {
    this.metrics.markPoll(new Date(atMs));
  }
}

/** One observer that forwards every report to each of `observers`, in order. */
export function combineObservers(...observers: RunnerObserver[]): RunnerObserver {
  return {
    orderSeen: (orderId) => observers.forEach((o) => o.orderSeen(orderId)),
    action: (chain, kind, outcome, seconds) =>
      observers.forEach((o) => o.action(chain, kind, outcome, seconds)),
    decision: (outcome, reason) => observers.forEach((o) => o.decision(outcome, reason)),
    attempt: (chain, state) => observers.forEach((o) => o.attempt(chain, state)),
    tip: (chain, height) => observers.forEach((o) => o.tip(chain, height)),
    polled: (atMs) => observers.forEach((o) => o.polled(atMs)),
  };
}

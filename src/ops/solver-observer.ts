/**
 * Turns what the runner reports into the solver's Prometheus metrics, and lets several observers (metrics,
 * the per-round probe, a caller's own) listen to one runner.
 */
import type { ActionKind, AttemptState } from "../chains/chain.js";
import type { RunnerObserver } from "../solver/observer.js";
import type { SolverMetrics } from "./metrics.js";

export class MetricsObserver implements RunnerObserver {
  constructor(private readonly metrics: SolverMetrics) {}

  orderSeen(_orderId: string): void {
    this.metrics.ordersSeen.inc();
  }

  action(chain: string, kind: ActionKind, outcome: "sent" | "confirmed" | "failed" | "satisfied"): void {
    this.metrics.actions.inc({ chain, kind, outcome });
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
    action: (chain, kind, outcome) => observers.forEach((o) => o.action(chain, kind, outcome)),
    decision: (outcome, reason) => observers.forEach((o) => o.decision(outcome, reason)),
    attempt: (chain, state) => observers.forEach((o) => o.attempt(chain, state)),
    tip: (chain, height) => observers.forEach((o) => o.tip(chain, height)),
    polled: (atMs) => observers.forEach((o) => o.polled(atMs)),
  };
}

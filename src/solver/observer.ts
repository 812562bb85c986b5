import type { ActionKind, AttemptState } from "../chains/chain.js";

/** How an action ended up: `satisfied` when the chain already showed its effect and nothing was sent. */
export type ActionOutcome = "sent" | "confirmed" | "failed" | "satisfied";

/** What the runner reports as it works; the ops surface turns it into metrics. */
export interface RunnerObserver {
  orderSeen(orderId: string): void;
  /** `seconds`: from the action's first claim to this outcome, where known. */
  action(chain: string, kind: ActionKind, outcome: ActionOutcome, seconds?: number): void;
  decision(outcome: "refuse" | "wait", reason: string): void;
  attempt(
    chain: string,
    state: AttemptState | "bumped" | "cancelled" | "rebroadcast" | "mined" | "reorganised",
  ): void;
  tip(chain: string, height: bigint): void;
  /** A round finished (successfully or not: the runner keeps its last error for health). */
  polled(atMs: number): void;
}

export const silentObserver: RunnerObserver = {
  orderSeen: () => undefined,
  action: () => undefined,
  decision: () => undefined,
  attempt: () => undefined,
  tip: () => undefined,
  polled: () => undefined,
};

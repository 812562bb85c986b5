import type { ActionKind, AttemptState } from "../chains/chain.js";

/** What the runner reports as it works; the ops surface turns it into metrics. */
export interface RunnerObserver {
  orderSeen(orderId: string): void;
  action(chain: string, kind: ActionKind, outcome: "sent" | "confirmed" | "failed" | "satisfied"): void;
  decision(outcome: "refuse" | "wait", reason: string): void;
  attempt(chain: string, state: AttemptState | "bumped" | "rebroadcast"): void;
  tip(chain: string, height: bigint): void;
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

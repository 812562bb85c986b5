/**
 * Why an order is not filled, recorded once per change: in the journal, in the metrics and in the log
 * (a refusal as a warning). Every refusal to fill, from a pass or from the gate, is said here.
 */
import type { Logger } from "pino";
import type { DecisionRow, Journal } from "../journal/journal.js";
import type { RunnerObserver } from "./observer.js";
import type { Decision } from "./plan-types.js";

export class DecisionLog {
  constructor(
    private readonly journal: Journal,
    private readonly observer: RunnerObserver,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /**
   * `last`: the decision a pass's journal view showed, when it has one; the same again writes nothing
   * and reads nothing more. (A different one recorded since the view was read, by the gate, is seen by
   * the next pass's view, which records this one again if it still holds.)
   */
  record(
    orderId: string,
    { outcome, reason, detail }: Decision,
    log?: Logger,
    last?: Pick<DecisionRow, "outcome" | "reason"> | null,
  ): void {
    if (last?.outcome === outcome && last.reason === reason) return;
    const changed = this.journal.recordDecision(orderId, outcome, reason, detail, this.now());
    if (!changed) return;
    this.observer.decision(outcome, reason);
    const logger = log ?? this.logger.child({ orderId });
    if (outcome === "refuse") logger.warn({ reason, detail }, "refusing to fill");
    else logger.info({ reason, detail }, "not filling yet");
  }
}

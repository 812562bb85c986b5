/**
 * Acts on what the passes decided: gathers actions into windows (so batches stay full), admits fills
 * through the fill gate (every rule again, capacity, the journal's claim), claims the other actions,
 * batches them per chain and kind, and sends them. Each order is let go (`onOut`) once its actions are
 * out, whatever became of them.
 */
import PQueue from "p-queue";
import type { Logger } from "pino";
import { batchLimit } from "../chains/chain.js";
import type { Journal } from "../journal/journal.js";
import { batchActions, executeClaimed, type ExecutionContext } from "./action-executor.js";
import type { DecisionLog } from "./decision-log.js";
import {
  claimCommitting,
  reusable,
  type ActionCandidate,
  type ClaimedAction,
  type FillGate,
} from "./fill-gate.js";
import { GatheringSender } from "./gathering-sender.js";
import type { ChainRegistry } from "./solver-chain.js";

/**
 * A round's actions are sent this long after the first of them is ready, together with whatever else is
 * ready by then, instead of after the round's slowest chain read.
 */
const ROUND_GATHER_MS = 250;

/**
 * The passes beside the round gather their actions for a shorter time: they act on one block's news, and
 * a fill sent later than the next block is late. Long enough to take in the orders let go one by one
 * after another pass (in the load benchmark, 38 fills went out in 14 transactions per chain when each
 * pass sent its own).
 */
const SIDE_GATHER_MS = 100;

/**
 * A new block's pass keeps the side window open while its orders are still being processed, up to this
 * long after the window's first action. In the load benchmark, 21 of a block's 188 orders finished just
 * after a 100 ms window closed, waited for its gate pass and sends, and were filled a block late.
 */
const SIDE_GATHER_MAX_MS = 200;

export interface DispatcherOptions {
  journal: Journal;
  chains: ChainRegistry;
  gate: FillGate;
  decisions: DecisionLog;
  context: ExecutionContext;
  /** Transactions built and sent at once. */
  concurrency: number;
  /** These orders' actions are out. */
  onOut: (orderIds: readonly string[]) => void;
  logger: Logger;
  now: () => number;
}

export class Dispatcher {
  /** One window for every pass beside the round, so actions due together share a transaction. */
  readonly side: GatheringSender;
  /** Its own queue: sends never wait behind the round's remaining chain reads. */
  private readonly sends: PQueue;

  constructor(private readonly options: DispatcherOptions) {
    this.sends = new PQueue({ concurrency: options.concurrency });
    this.side = new GatheringSender((candidates) => this.dispatchBeside(candidates), {
      gatherMs: SIDE_GATHER_MS,
      maxGatherMs: SIDE_GATHER_MAX_MS,
      overlap: true,
    });
  }

  /** A round's own window: its sends one after another; `finish` it at the round's end. */
  roundWindow(): GatheringSender {
    return new GatheringSender((candidates) => this.dispatch(candidates), {
      gatherMs: ROUND_GATHER_MS,
      overlap: false,
    });
  }

  /** Sends what the side window still holds and waits for every send under way. */
  async finish(): Promise<void> {
    await this.side.finish();
    await this.sends.onIdle();
  }

  private async dispatch(candidates: readonly ActionCandidate[]): Promise<void> {
    try {
      await this.act(candidates);
    } finally {
      this.options.onOut(candidates.map((c) => c.request.orderId));
    }
  }

  /** A failure beside the round is logged; the orders are let go either way. */
  private async dispatchBeside(candidates: readonly ActionCandidate[]): Promise<void> {
    try {
      await this.dispatch(candidates);
    } catch (error) {
      this.options.logger.error(
        { err: error, orders: new Set(candidates.map((c) => c.request.orderId)).size },
        "could not send the actions of orders processed beside the round",
      );
    }
  }

  private async act(candidates: readonly ActionCandidate[]): Promise<void> {
    const { chains, gate, decisions, context } = this.options;
    const gated = await gate.admit(candidates.filter((c) => c.request.kind === "fill"));
    for (const { orderId, decision } of gated.refused) decisions.record(orderId, decision);
    const claimed: ClaimedAction[] = [...gated.admitted];
    for (const candidate of candidates) {
      if (candidate.request.kind === "fill") continue;
      const action = this.claim(candidate);
      if (action !== null) claimed.push({ request: candidate.request, action });
    }
    const batches = batchActions(claimed, (chain, kind) => batchLimit(chains.get(chain)?.executor, kind));
    await Promise.all(
      batches.map((batch) => {
        const chain = chains.get(batch[0]?.request.params.chain ?? "");
        return chain ? this.sends.add(() => executeClaimed(batch, chain, context)) : undefined;
      }),
    );
  }

  /** Claims a redeem, refund or instant refund; null when it is under way, done, or refused by the journal. */
  private claim({ request, input }: ActionCandidate): ClaimedAction["action"] | null {
    const { journal, logger, now } = this.options;
    if (request.kind === "instant_refund") {
      const claimed = claimCommitting(journal, request, input, now());
      if ("decision" in claimed) {
        const { reason, detail } = claimed.decision;
        logger
          .child({ orderId: request.orderId })
          .warn({ reason, detail }, "instant refund refused by the journal");
        return null;
      }
      return claimed.action;
    }
    const claim = journal.claimAction(request, now());
    return claim.ok ? reusable(journal, claim.action, request) : null;
  }
}

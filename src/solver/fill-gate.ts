/**
 * The last gate before a fill: every fill rule is asked again at the present moment (the journal may
 * have changed since the plan: an instant refund signed, the source taken by another order), then the
 * price is asked again at the inventory the fill finds and capacity judged, against fresh balances and
 * every fill claimed before it, and only then is the fill's row claimed in the journal, atomically with
 * its source and the terms that were priced.
 *
 * One pass at a time per destination chain: only a pass of that chain claims its assets, so the
 * balances it reads stay true until its claims are made, and a chain whose reads are slow (a Bitcoin
 * wallet under load) never holds another chain's fills. The exposure limit counts the fills of every
 * chain: it is read again, and the fills claimed, one pass at a time for the whole solver.
 */
import PQueue from "p-queue";
import type { ActionRequest } from "../chains/chain.js";
import type { ActionRow, ExclusiveClaim, Journal } from "../journal/journal.js";
import { actionStatuses } from "../journal/order-view.js";
import type { CapacityLedger } from "../pricing/capacity-ledger.js";
import { refusalOutcome } from "../pricing/refusal.js";
import type { Decision, PlanInput } from "./plan-types.js";
import { fillAmounts } from "./order-terms.js";
import { fillVerdict } from "./planner.js";
import { sourceCover } from "./source-cover.js";

export interface ActionCandidate {
  request: ActionRequest;
  /** The facts the plan was made from. */
  input: PlanInput;
}

export interface ClaimedAction {
  request: ActionRequest;
  action: ActionRow;
}

export interface GateRefusal {
  orderId: string;
  decision: Decision;
}

export interface GateResult {
  admitted: ClaimedAction[];
  refused: GateRefusal[];
}

export interface FillGateOptions {
  journal: Journal;
  /** Fresh capacity for these destination assets. */
  openLedger: (assetIds: readonly string[]) => Promise<CapacityLedger>;
  now: () => number;
}

export class FillGate {
  private readonly chainLocks = new Map<string, PQueue>();
  private readonly claimLock = new PQueue({ concurrency: 1 });

  constructor(private readonly options: FillGateOptions) {}

  async admit(candidates: readonly ActionCandidate[]): Promise<GateResult> {
    const byChain = new Map<string, ActionCandidate[]>();
    for (const candidate of candidates) {
      const chain = candidate.request.params.chain;
      const ofChain = byChain.get(chain);
      if (ofChain === undefined) byChain.set(chain, [candidate]);
      else ofChain.push(candidate);
    }
    const results = await Promise.all(
      [...byChain].map(([chain, ofChain]) => this.chainLock(chain).add(() => this.admitOnChain(ofChain))),
    );
    return {
      admitted: results.flatMap((r) => r.admitted),
      refused: results.flatMap((r) => r.refused),
    };
  }

  private chainLock(chain: string): PQueue {
    let lock = this.chainLocks.get(chain);
    if (lock === undefined) {
      lock = new PQueue({ concurrency: 1 });
      this.chainLocks.set(chain, lock);
    }
    return lock;
  }

  /** Fills of one destination chain, under that chain's lock. */
  private async admitOnChain(candidates: readonly ActionCandidate[]): Promise<GateResult> {
    const { journal } = this.options;
    const result: GateResult = { admitted: [], refused: [] };
    const passing: ActionCandidate[] = [];
    for (const candidate of candidates) {
      const input = refreshInput(journal, candidate.input, this.options.now());
      const status = input.actions.fill;
      if (status !== undefined && status !== "planned" && status !== "failed") continue;
      const decision = fillVerdict(input);
      if (decision) result.refused.push({ orderId: candidate.request.orderId, decision });
      else passing.push({ ...candidate, input });
    }
    if (passing.length === 0) return result;
    const ledger = await this.options.openLedger([...new Set(passing.map((c) => c.request.params.asset))]);
    return this.claimLock.add(async () => {
      // Read here, not when the ledger was opened: fills other chains' passes claimed meanwhile count.
      await ledger.readExposure();
      await this.claimAdmitted(passing, ledger, result);
      return result;
    });
  }

  /**
   * Takes each fill from the ledger in order, then claims those it admitted in the journal in one
   * transaction; refusals are noted in `result`. A fill the journal then refuses (its source taken by
   * another order) keeps its share of the ledger until the pass ends: later fills of the pass are judged
   * against less, never more, than is there.
   */
  private async claimAdmitted(
    passing: readonly ActionCandidate[],
    ledger: CapacityLedger,
    result: GateResult,
  ): Promise<void> {
    const { journal } = this.options;
    const taken: ActionCandidate[] = [];
    for (const candidate of passing) {
      const { request } = candidate;
      const own = journal.orderActions(request.orderId).find((a) => a.kind === "fill");
      const alreadyPlanned = own?.status === "planned" ? own.request.params.amount : 0n;
      // Priced and judged by what the claim freezes and the fill carries, whatever the service says now.
      const refusal = await ledger.take({
        order: fillAmounts({ source: candidate.input.source.params, destination: request.params }),
        alreadyPlanned,
      });
      if (refusal === undefined) {
        taken.push(candidate);
        continue;
      }
      const decision = {
        outcome: refusalOutcome(refusal.reason),
        reason: refusal.reason,
        detail: refusal.message,
      };
      result.refused.push({ orderId: request.orderId, decision });
    }
    journal.atomically(() => {
      for (const { request, input } of taken) {
        const claimed = claimCommitting(journal, request, input, this.options.now());
        if ("decision" in claimed)
          result.refused.push({ orderId: request.orderId, decision: claimed.decision });
        else if (claimed.action !== null) result.admitted.push({ request, action: claimed.action });
      }
    });
  }
}

/** The plan's facts with the journal and the clock of now: what the solver did since the plan counts. */
export function refreshInput(journal: Journal, input: PlanInput, nowMs: number): PlanInput {
  const orderId = input.order.order_id;
  const view = journal.orderView(orderId, () => sourceBacking(input));
  if (view === null) {
    // An order the journal never stored has no actions; its source may still back another's.
    const holder = journal.sourceBackedBy(sourceBacking(input));
    return { ...input, nowMs, actions: {}, fillTxids: [], sourceBacksOrder: holder };
  }
  return {
    ...input,
    nowMs,
    actions: actionStatuses(view.actions),
    fillTxids: view.fillTxids,
    sourceBacksOrder: view.sourceBacksOrder,
  };
}

/** The source HTLC an order's fill or instant refund commits against: its chain and recomputed id. */
export function sourceBacking(input: PlanInput): ExclusiveClaim["backing"] {
  const computed = input.source.computedSwapId;
  return {
    chain: input.source.params.chain,
    swapId: typeof computed === "string" ? computed : input.source.params.swapId,
  };
}

/**
 * Claims a fill or an instant refund with its source and frozen terms. Returns the row to build when
 * nothing of it is signed yet, null when it is already under way, or the journal's refusal.
 */
export function claimCommitting(
  journal: Journal,
  request: ActionRequest,
  input: PlanInput,
  nowMs: number,
): { action: ActionRow | null } | { decision: Decision } {
  const claim = journal.claimAction(request, nowMs, {
    backing: sourceBacking(input),
    terms: {
      source: input.source.params,
      destination: input.destination.params,
      refundAddress: input.refundAddress,
    },
    lockIds: (sourceCover(input)?.locks ?? []).map((lock) => lock.id),
  });
  if (!claim.ok) return { decision: { outcome: "refuse", reason: claim.reason, detail: claim.detail } };
  return { action: reusable(journal, claim.action, request) };
}

/** The row to build from, when nothing of the action is signed (a `failed` one is tried again); else null. */
export function reusable(journal: Journal, action: ActionRow, request: ActionRequest): ActionRow | null {
  if (action.status === "planned") return action;
  if (action.status !== "failed") return null;
  journal.retryAction(action.id, request);
  return { ...action, status: "planned", request };
}

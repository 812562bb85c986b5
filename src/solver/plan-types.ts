import type { ActionKind, ActionRequest, HtlcParams, HtlcState } from "../chains/chain.js";
import type { SafetyConfig } from "../config/types.js";
import type { ActionStatus } from "../journal/journal.js";
import type { Order } from "../orderbook/types.js";
import type { ChainFamily } from "../chains/registry.js";
import type { SecretLengthRule } from "../chains/secret-length.js";

/** What the solver knows about one side of an order: the order's claims and the chain's answer. */
export interface SideFacts {
  family: ChainFamily;
  /** The HTLC as the order states it. */
  params: HtlcParams;
  /**
   * The swap id recomputed from the order's fields, as the chain's contract or script would derive it;
   * an error when the fields cannot form one (a malformed key, a hash of the wrong length).
   */
  computedSwapId: string | { error: string };
  /** The chain read at the stated swap id; null when the chain could not be read this round. */
  state: HtlcState | null;
  tipHeight: bigint;
  /** Wall-clock time of the read: time passed since counts against the blocks the tip promised. */
  readAtMs: number;
  /** The family can pre-sign an instant refund of a source it declines (Bitcoin's leaf). */
  offersInstantRefund: boolean;
  /** Bytes a redeem here requires of the secret; null when any preimage of the hash redeems. */
  secretLength: SecretLengthRule;
  /** Solver's own address (EVM) or x-only key (Bitcoin) on this chain. */
  solverParty: string;
  minBlockTimeMs: number;
  maxBlockTimeMs: number;
  minConfirmations: number;
}

/** Pricing's verdict; `outcome` says whether a refusal judges the order or only the solver's present state. */
export type QuoteCheck =
  { ok: true } | { ok: false; outcome: "refuse" | "wait"; reason: string; detail: string };

export interface PlanInput {
  order: Order;
  nowMs: number;
  source: SideFacts;
  destination: SideFacts;
  /** Journal status of each action of this order that exists. */
  actions: Partial<Record<ActionKind, ActionStatus>>;
  /** Every transaction the solver journaled for this order's fill: the destination locks it made are its fill. */
  fillTxids: readonly string[];
  /** Another order the solver already filled or instantly refunded against this same source HTLC. */
  sourceBacksOrder: string | null;
  /** Where an instant refund of the source pays (the source owner), as the solver's terms say. */
  refundAddress: string;
  /** Pricing's verdict on filling this order now; null when not evaluated. */
  quoteCheck: QuoteCheck | null;
  safety: SafetyConfig;
  /** Longest destination timelock the solver accepts on the destination chain, in its units. */
  maxDestinationTimelock: bigint;
}

/** Why no fill happens now. `refuse` is a verdict on the order; `wait` expects the facts to change. */
export interface Decision {
  outcome: "refuse" | "wait";
  reason: string;
  detail: string;
}

export interface Plan {
  actions: ActionRequest[];
  /** Why the order is not being filled, when it is not and it could still matter. */
  decision: Decision | null;
  /** Nothing is left to do or watch for this order. */
  done: boolean;
}

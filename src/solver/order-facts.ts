/**
 * The facts a plan is made from: both sides of an order read from their chains under the terms the
 * solver holds it to, with what the journal's view says the solver did.
 */
import type { Logger } from "pino";
import type { SafetyConfig } from "../config/types.js";
import type { OrderTerms, SourceBacking } from "../journal/journal.js";
import { actionStatuses, type OrderView } from "../journal/order-view.js";
import type { Order } from "../orderbook/types.js";
import { chainOf, recomputeSwapId, sideFacts, type RoundTip } from "./facts.js";
import { statedTerms } from "./order-terms.js";
import type { PlanInput } from "./plan-types.js";
import type { ChainRegistry } from "./solver-chain.js";

/** A chain's tip as the solver knows it best at this moment; undefined when it must be read. */
export type TipOf = (chain: string) => RoundTip | undefined;

export const noTips: TipOf = () => undefined;

export class OrderFacts {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly safety: SafetyConfig,
    private readonly now: () => number,
  ) {}

  /** The terms an order is held to: frozen at the first commitment, else as the order states them. */
  terms(snapshot: Order, frozen: OrderTerms | null): OrderTerms {
    return frozen ?? statedTerms(snapshot, this.chains);
  }

  /** The source HTLC an order commits against (journal/order-view.ts); null for an unreadable order. */
  readonly backingOf = (snapshot: Order, frozen: OrderTerms | null): SourceBacking | null => {
    try {
      const { source } = this.terms(snapshot, frozen);
      // As `sourceBacking` (fill-gate.ts) names it: the recomputed id, else the stated one.
      const computed = recomputeSwapId(chainOf(this.chains, snapshot, "source"), source);
      return { chain: source.chain, swapId: typeof computed === "string" ? computed : source.swapId };
    } catch {
      return null;
    }
  };

  /** Both sides under these terms; `quoteCheck` is left to the caller. */
  async read(view: OrderView, terms: OrderTerms, log: Logger, tipOf: TipOf = noTips): Promise<PlanInput> {
    const order = view.snapshot;
    const context = { orderId: order.order_id, logger: log, now: this.now };
    const sourceChain = chainOf(this.chains, order, "source");
    const destinationChain = chainOf(this.chains, order, "destination");
    const [source, destination] = await Promise.all([
      sideFacts(sourceChain, terms.source, {
        ...context,
        side: "source",
        tip: tipOf(sourceChain.config.name),
        // The deposits a fill was judged on stay readable however the address is flooded after it.
        lockIds: view.sourceLockIds,
      }),
      sideFacts(destinationChain, terms.destination, {
        ...context,
        side: "destination",
        tip: tipOf(destinationChain.config.name),
        // Nothing was ever signed there: no answer can show a fill of ours (HtlcReadOptions). An index's
        // last sync will do; a fresh one took 1-3 s under load.
        latestView: view.fillTxids.length === 0,
        // The fill is the transaction the solver journaled, not whatever lives at the address.
        ownTxids: view.fillTxids,
      }),
    ]);
    return {
      order,
      nowMs: this.now(),
      source,
      destination,
      actions: actionStatuses(view.actions),
      fillTxids: view.fillTxids,
      sourceBacksOrder: view.sourceBacksOrder,
      refundAddress: terms.refundAddress,
      quoteCheck: null,
      safety: this.safety,
      maxDestinationTimelock: BigInt(destinationChain.config.fillTimelockBlocks),
    };
  }
}

/**
 * Every pollIntervalMs: for each unsettled order, read both sides from their chains, merge the facts
 * into the swap records, advance the status, and redeem the destination for the user when due.
 * Polls never overlap; stop() waits for the one in progress.
 */
import { familyOfChain } from "../families/registry.js";
import PQueue from "p-queue";
import { Repeat } from "htlc-solver/util/repeat.js";
import { isKnownStatus, type Order, type SwapRecord } from "htlc-solver/orderbook/types.js";
import { RelayRejectedError } from "./chains/relay-error.js";
import type { OnChainTerms, ServiceChain } from "./chains/service-chain.js";
import { chainOf, type ServiceContext } from "./context.js";
import { errorMessage } from "./errors.js";
import { serviceRedeemDecision } from "./orders/service-redeem.js";
import { isSettled, nextStatus } from "./orders/status.js";
import { applyFacts } from "./orders/swap-facts.js";
import type { StoredOrder } from "./store/order-store.js";

/** Orders refreshed at once; each refresh is a few chain reads, and sends stay one at a time per chain. */
const REFRESH_CONCURRENCY = 16;

export class WatchLoop {
  private readonly repeat: Repeat;
  private stopped = false;

  constructor(private readonly ctx: ServiceContext) {
    this.repeat = new Repeat(() => this.pass(), ctx.config.pollIntervalMs);
  }

  start(): void {
    this.stopped = false;
    this.repeat.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.repeat.stop();
  }

  /** A pass that fails as a whole (its store unreadable) is logged; the next one comes as usual. */
  private async pass(): Promise<void> {
    try {
      await this.pollOnce();
    } catch (error) {
      this.ctx.logger.error({ reason: errorMessage(error) }, "watch pass failed");
    }
  }

  /** One pass over every unsettled order. */
  async pollOnce(): Promise<void> {
    const tips = new Map<string, Promise<bigint>>();
    const tipOf = (chain: ServiceChain): Promise<bigint> => {
      let tip = tips.get(chain.config.name);
      if (tip === undefined) {
        tip = chain.watcher.tipHeight();
        tips.set(chain.config.name, tip);
      }
      return tip;
    };
    // Orders side by side: one at a time, a pass over a few hundred open orders takes minutes.
    const queue = new PQueue({ concurrency: REFRESH_CONCURRENCY });
    await Promise.all(
      this.ctx.orders.unsettled().map((stored) =>
        queue.add(async () => {
          if (this.stopped) return;
          try {
            await this.refresh(stored, tipOf);
          } catch (error) {
            this.ctx.logger.warn(
              { orderId: stored.order.order_id, reason: errorMessage(error) },
              "order refresh failed",
            );
          }
        }),
      ),
    );
  }

  private async refresh(stored: StoredOrder, tipOf: (chain: ServiceChain) => Promise<bigint>): Promise<void> {
    const { order } = stored;
    const sourceChain = chainOf(this.ctx, order.source_swap.chain);
    const destinationChain = chainOf(this.ctx, order.destination_swap.chain);
    const [sourceTip, destinationTip] = await Promise.all([tipOf(sourceChain), tipOf(destinationChain)]);
    const [sourceFacts, destinationFacts] = await Promise.all([
      sourceChain.watcher.observe(order.source_swap, stored.sourceWatchFrom, sourceTip),
      destinationChain.watcher.observe(order.destination_swap, stored.destinationWatchFrom, destinationTip),
    ]);
    const source = applyFacts(order.source_swap, sourceFacts, sourceTip);
    const destination = applyFacts(order.destination_swap, destinationFacts, destinationTip);
    const status = nextStatus({
      // The service writes only its own statuses; anything else in its store starts over from Created.
      previous: isKnownStatus(order.status) ? order.status : "Created",
      source,
      destination,
      destinationTip,
      createdAtMs: Date.parse(order.created_at),
      deadlineSeconds: order.additional_data.deadline,
      initiateDetectSeconds: familyOfChain(sourceChain.config).initiateDetectSeconds(this.ctx.deadlines),
      nowMs: this.ctx.now(),
    });
    const next: Order = {
      ...order,
      status,
      source_swap: withApiWrites(source, this.ctx.orders.get(order.order_id)?.order.source_swap),
      destination_swap: destination,
    };
    const settled = isSettled(status, source, destination);
    if (settled || JSON.stringify(next) !== JSON.stringify(order)) this.ctx.orders.update(next, settled);
    if (status !== order.status) {
      this.ctx.logger.info(
        { orderId: order.order_id, from: order.status, to: status },
        "order status changed",
      );
    }
    if (!settled) await this.maybeRedeem(next, destinationChain, destinationFacts.onChain);
  }

  private async maybeRedeem(order: Order, chain: ServiceChain, onChain: OnChainTerms | null): Promise<void> {
    const decision = serviceRedeemDecision({
      order,
      secret: this.ctx.orders.secretOf(order.order_id),
      destinationOnChain: onChain,
      lastRelay: this.ctx.relays.latest(order.order_id, "redeem"),
      sameAddress: (a, b) => chain.addressKey(a) === chain.addressKey(b),
    });
    if (decision.kind === "skip") return;
    if (decision.kind === "follow") {
      const outcome = await chain.txOutcome(decision.relay.txHash);
      if (outcome === "pending") return;
      const state = outcome === "success" ? "success" : "failed";
      this.ctx.relays.setState(
        decision.relay.id,
        state,
        state === "failed" ? `transaction ${outcome}` : null,
      );
      if (state === "success") return;
      this.ctx.logger.warn(
        { orderId: order.order_id, txHash: decision.relay.txHash, outcome },
        "service redeem failed",
      );
    }
    await this.sendRedeem(order, chain);
  }

  private async sendRedeem(order: Order, chain: ServiceChain): Promise<void> {
    const secret = this.ctx.orders.secretOf(order.order_id);
    if (secret === undefined) return;
    try {
      const txHash = await chain.redeem(order.destination_swap, secret);
      this.ctx.relays.record(order.order_id, "redeem", chain.config.name, txHash, this.ctx.now());
      this.ctx.logger.info({ orderId: order.order_id, txHash }, "service redeem sent");
    } catch (error) {
      const reason = error instanceof RelayRejectedError ? error.message : errorMessage(error);
      this.ctx.logger.warn({ orderId: order.order_id, reason }, "service redeem not sent");
    }
  }
}

/**
 * Fields the API writes into a swap record (the completed instant refund) survive a poll that read the
 * record before the write: the latest stored value wins. Nothing awaits between that read and the update.
 */
function withApiWrites(swap: SwapRecord, stored: SwapRecord | undefined): SwapRecord {
  const instantRefund = stored?.instant_refund_tx;
  return instantRefund === undefined ? swap : { ...swap, instant_refund_tx: instantRefund };
}

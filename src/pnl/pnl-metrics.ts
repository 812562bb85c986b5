/**
 * Prometheus counters of what settled orders realised, in USD, registered on the solver's registry. A
 * counter only grows, so the result is two counters, gains and losses: PnL = gain − loss.
 */
import { Counter, type Registry } from "prom-client";

export class PnlMetrics {
  readonly volume: Counter<"pair">;
  readonly feesPaid: Counter<"chain">;
  readonly gain: Counter<"pair">;
  readonly loss: Counter<"pair">;
  readonly settled: Counter<"pair">;

  constructor(registry: Registry, prefix = "solver_") {
    const registers = [registry];
    this.volume = new Counter({
      name: `${prefix}volume_usd_total`,
      help: "USD value of the source amounts of settled orders, at the prices of settlement.",
      labelNames: ["pair"],
      registers,
    });
    this.feesPaid = new Counter({
      name: `${prefix}network_fees_usd_total`,
      help: "USD value of the network fees settled orders' transactions paid.",
      labelNames: ["chain"],
      registers,
    });
    this.gain = new Counter({
      name: `${prefix}pnl_gain_usd_total`,
      help: "Realised result of settled orders that ended positive, USD (PnL = gain - loss).",
      labelNames: ["pair"],
      registers,
    });
    this.loss = new Counter({
      name: `${prefix}pnl_loss_usd_total`,
      help: "Realised result of settled orders that ended negative, as a positive USD amount.",
      labelNames: ["pair"],
      registers,
    });
    this.settled = new Counter({
      name: `${prefix}settled_orders_total`,
      help: "Orders whose profit and loss was journaled.",
      labelNames: ["pair"],
      registers,
    });
  }
}

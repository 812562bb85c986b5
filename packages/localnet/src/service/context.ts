/** Everything a request handler or the watch loop needs, built once by startLocalService. */
import type { Logger } from "pino";
import type { ServiceChain } from "./chains/service-chain.js";
import type { LocalServiceConfig, LocalServiceDeadlines } from "./config.js";
import type { Registry } from "./registry.js";
import type { OrderStore } from "./store/order-store.js";
import type { RelayStore } from "./store/relay-store.js";

export interface ServiceContext {
  config: LocalServiceConfig;
  deadlines: LocalServiceDeadlines;
  quoteTimeoutMs: number;
  registry: Registry;
  chains: Map<string, ServiceChain>;
  orders: OrderStore;
  relays: RelayStore;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Orders whose initiate is being relayed right now (one request at a time per order). */
  initiating: Set<string>;
  /** Orders whose refund or instant refund is being handled right now (one at a time per order). */
  refunding: Set<string>;
}

export function chainOf(ctx: ServiceContext, name: string): ServiceChain {
  const chain = ctx.chains.get(name);
  if (chain === undefined) throw new Error(`chain ${name} is not configured`);
  return chain;
}

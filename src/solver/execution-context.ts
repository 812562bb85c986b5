/** What building, sending and following transactions needs from the rest of the solver. */
import type { Logger } from "pino";
import type { SafetyConfig } from "../config/types.js";
import type { Journal } from "../journal/journal.js";
import type { OrderbookClient } from "../orderbook/client.js";
import { indexAssets } from "../pricing/assets.js";
import type { PriceSource } from "../pricing/price-source.js";
import type { ExecutionContext } from "./action-executor.js";
import { urgentRedeemAllowance } from "./fee-allowance.js";
import type { FillSafety } from "./fill-safety.js";
import type { RunnerObserver } from "./observer.js";
import type { ChainRegistry } from "./solver-chain.js";

export interface ExecutionContextOptions {
  journal: Journal;
  orderbook: Pick<OrderbookClient, "instantRefund">;
  chains: ChainRegistry;
  prices: PriceSource;
  safety: SafetyConfig;
  fillSafety: FillSafety;
  observer: RunnerObserver;
  logger: Logger;
  now: () => number;
}

export function executionContext(options: ExecutionContextOptions): ExecutionContext {
  const { journal, orderbook, observer, logger, safety, chains, prices, fillSafety, now } = options;
  const assets = indexAssets([...chains.values()].map((chain) => chain.config));
  return {
    journal,
    orderbook,
    observer,
    logger,
    urgencyMarginMs: safety.redeemDeadlineMarginMs,
    fillSafety,
    feeAllowance: (actions) =>
      urgentRedeemAllowance(actions, {
        nowMs: now(),
        urgencyMarginMs: safety.redeemDeadlineMarginMs,
        urgentRedeemFeeBps: safety.urgentRedeemFeeBps,
        assets,
        feeAssetOf: (chain) => chains.get(chain)?.executor.feeAsset ?? null,
        prices,
        logger,
      }),
  };
}

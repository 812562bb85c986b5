/**
 * What the solver reads of the chains before its passes: each chain's tip once for a round, the freshest
 * tip of a chain between the round's and the chain watch's, and which HTLCs the passes are about to read
 * (a reader that can, reads them together).
 */
import type { Logger } from "pino";
import type { HtlcParams } from "../chains/chain.js";
import type { Journal, OrderTerms } from "../journal/journal.js";
import type { Order } from "../orderbook/types.js";
import { statedTerms } from "./order-terms.js";
import { readTip, type RoundTip } from "./facts.js";
import type { TipOf } from "./order-facts.js";
import type { ChainRegistry } from "./solver-chain.js";

/** Each chain's tip; a chain that does not answer is read per order instead. */
export async function readTips(
  chains: ChainRegistry,
  now: () => number,
  logger: Logger,
): Promise<ReadonlyMap<string, RoundTip>> {
  const tips = new Map<string, RoundTip>();
  await Promise.all(
    [...chains.values()].map(async (chain) => {
      try {
        tips.set(chain.config.name, await readTip(chain, now));
      } catch (error) {
        logger.warn({ err: error, chain: chain.config.name }, "could not read the chain's tip this round");
      }
    }),
  );
  return tips;
}

/** Each chain's tip: whichever of these and the watch's latest was read last. */
export function freshestTip(
  tips: ReadonlyMap<string, RoundTip>,
  watch: { tip(chain: string): RoundTip | undefined } | null,
): TipOf {
  return (chain) => {
    const given = tips.get(chain);
    const watched = watch?.tip(chain);
    if (given === undefined) return watched;
    return watched !== undefined && watched.readAtMs > given.readAtMs ? watched : given;
  };
}

/** Tells each chain which HTLCs are about to be read, before any is read (ChainReader.expectReads). */
export function announceReads(
  chains: ChainRegistry,
  sides: Iterable<{ source: HtlcParams; destination: HtlcParams }>,
): void {
  const byChain = new Map<string, HtlcParams[]>();
  for (const { source, destination } of sides) {
    for (const params of [source, destination]) {
      const list = byChain.get(params.chain) ?? [];
      list.push(params);
      byChain.set(params.chain, list);
    }
  }
  for (const [name, params] of byChain) chains.get(name)?.reader.expectReads?.(params);
}

/** The HTLCs passes over these orders will read; an order the solver cannot read is left to its pass. */
export function* termsOf(
  orders: readonly Order[],
  journal: Journal,
  chains: ChainRegistry,
): Generator<OrderTerms> {
  for (const order of orders) {
    try {
      yield journal.orderTerms(order.order_id) ?? statedTerms(order, chains);
    } catch {
      continue;
    }
  }
}

import type { Logger } from "pino";
import type { HtlcParams } from "../chains/chain.js";
import type { Order } from "../orderbook/types.js";
import { moment } from "../util/moment.js";
import type { Side } from "./order-sides.js";
import type { SideFacts } from "./plan-types.js";
import type { ChainRegistry, SolverChain } from "./solver-chain.js";

export class UnsupportedChainError extends Error {
  override readonly name = "UnsupportedChainError";
}

export function chainOf(chains: ChainRegistry, order: Order, side: Side): SolverChain {
  const swap = side === "source" ? order.source_swap : order.destination_swap;
  const chain = chains.get(swap.chain);
  if (!chain) throw new UnsupportedChainError(`${side} chain ${swap.chain} is not configured`);
  const assetKnown = chain.config.assets.some((a) => a.id === swap.asset);
  if (!assetKnown) throw new UnsupportedChainError(`${side} asset ${swap.asset} is not configured`);
  return chain;
}

/** Ids already computed, per chain, by the fields they were computed from. */
const computedIds = new WeakMap<SolverChain, Map<string, string | { error: string }>>();
/** A chain's memo is started again past this many entries (each order's two sides stay the same). */
const MAX_COMPUTED_IDS = 50_000;

/**
 * The id the chain would give these fields; a field the chain could not take yields an explanation
 * instead. Remembered: every pass over an order asks it again, and a Bitcoin HTLC address is a key tweak.
 */
export function recomputeSwapId(chain: SolverChain, params: HtlcParams): string | { error: string } {
  const key = [
    params.asset,
    params.initiator,
    params.redeemer,
    params.secretHash,
    params.timelock,
    params.amount,
    params.swapId,
  ].join("|");
  let memo = computedIds.get(chain);
  if (memo === undefined || memo.size > MAX_COMPUTED_IDS) {
    memo = new Map();
    computedIds.set(chain, memo);
  }
  const known = memo.get(key);
  if (known !== undefined) return known;
  let id: string | { error: string };
  try {
    id = chain.reader.computeSwapId(params);
  } catch (error) {
    id = { error: error instanceof Error ? error.message : String(error) };
  }
  memo.set(key, id);
  return id;
}

/** A chain's tip as read once for a whole round, and when. */
export interface RoundTip {
  height: bigint;
  /** Wall-clock time the read was asked: time passed since counts against the blocks it promised. */
  readAtMs: number;
  /** When its answer came (`moment()`): a view of the chain begun after it is no older than this tip. */
  answeredAt: number;
}

/** Reads a chain's tip, with the times that make it a `RoundTip`. */
export async function readTip(chain: SolverChain, now: () => number): Promise<RoundTip> {
  const readAtMs = now();
  const height = await chain.reader.tipHeight();
  return { height, readAtMs, answeredAt: moment() };
}

/**
 * Reads one side from its chain. A chain that does not answer yields `state: null`, never a guess. With
 * the round's `tip`, only the HTLC is read: a tip read before the HTLC can only make the solver wait
 * longer for confirmations or a timelock, never act early. So any view of the HTLC begun after the tip
 * was answered will do (a Bitcoin index synced since, for the block that woke the order), not only one
 * begun now.
 */
export async function sideFacts(
  chain: SolverChain,
  params: HtlcParams,
  context: {
    orderId: string;
    side: Side;
    logger: Logger;
    now: () => number;
    tip?: RoundTip | undefined;
    /** The reader's latest view will do (ChainReader.readHtlc). */
    latestView?: boolean;
    /** The solver's journaled transactions that may have made a lock here (HtlcReadOptions.ownTxids). */
    ownTxids?: readonly string[];
    /** Other locks here the solver relies on (HtlcReadOptions.lockIds). */
    lockIds?: readonly string[];
  },
): Promise<SideFacts> {
  const base = {
    family: chain.config.family,
    params,
    computedSwapId: recomputeSwapId(chain, params),
    solverParty: chain.party,
    minBlockTimeMs: chain.config.minBlockTimeMs,
    maxBlockTimeMs: chain.config.maxBlockTimeMs,
    minConfirmations: chain.config.minConfirmations,
    offersInstantRefund: chain.executor.offersInstantRefund,
    secretLength: chain.reader.secretLength,
  };
  const readAtMs = context.tip?.readAtMs ?? context.now();
  try {
    const [tipHeight, state] = await Promise.all([
      context.tip?.height ?? chain.reader.tipHeight(),
      chain.reader.readHtlc(params, {
        latestView: context.latestView === true,
        ...(context.ownTxids === undefined ? {} : { ownTxids: context.ownTxids }),
        ...(context.lockIds === undefined ? {} : { lockIds: context.lockIds }),
        ...(context.tip === undefined ? {} : { viewAfter: context.tip.answeredAt }),
      }),
    ]);
    return { ...base, tipHeight, state, readAtMs };
  } catch (error) {
    context.logger.warn(
      { err: error, chain: params.chain, orderId: context.orderId, side: context.side },
      "chain read failed",
    );
    return { ...base, tipHeight: 0n, state: null, readAtMs };
  }
}

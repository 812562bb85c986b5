import type { EvmChainConfig } from "../config.js";
/**
 * How an EVM chain batches, as configured: the most actions one transaction carries, and whether fills
 * are batched through an EIP-7702 delegation of the solver's account. The defaults live here, for a
 * validated config (which always states them) and for a config built in code that leaves them out.
 */

/** Fills one per transaction, or many through the account's delegation to the project's BatchExecutor. */
export const EVM_BATCH_FILLS = ["none", "eip7702"] as const;
export type EvmBatchFills = (typeof EVM_BATCH_FILLS)[number];

/**
 * Actions in one EVM transaction at most. A redeem costs about 45 000 gas inside a batch and a fill about
 * 90 000, so 50 of either stays far below any chain's block gas limit and EIP-7825's 16.7 M per transaction.
 */
export const MAX_EVM_BATCH = 100;
export const DEFAULT_EVM_BATCH = 50;

export interface EvmBatching {
  maxBatch: number;
  batchFills: EvmBatchFills;
  /** Address of the BatchExecutor the account delegates to; "" when fills are not batched. */
  batchExecutor: string;
}

export function evmBatching(
  config: Pick<EvmChainConfig, "maxBatch" | "batchFills" | "batchExecutor">,
): EvmBatching {
  return {
    maxBatch: config.maxBatch ?? DEFAULT_EVM_BATCH,
    batchFills: config.batchFills ?? "none",
    batchExecutor: config.batchExecutor ?? "",
  };
}

/**
 * What the solver's EVM transactions cost at the fees of now: the latest block's base fee plus the
 * node's suggested priority fee, times the gas each HTLC call takes. The gas figures were measured on
 * the HTLC contracts, with a margin (test/e2e/pricing/network-fees.test.ts checks them against the
 * receipts of a swap): a lone call costs `perTransaction + perAction`, and each further call batched
 * through Multicall3 or the BatchExecutor adds about `perAction` (a lone redeem used 68,789 gas, one
 * of fifty 43,592).
 */
import type { PublicClient } from "viem";
import type { ActionFeeEstimate, NetworkFeeEstimate } from "../chain.js";
import { FeeCeilingError } from "./fee-policy.js";

/** Gas per transaction and per call, by kind; token (ERC-20) calls, which cost more than native ones. */
export const EVM_ACTION_GAS: Record<keyof NetworkFeeEstimate, { perTransaction: bigint; perAction: bigint }> =
  {
    fill: { perTransaction: 26_000n, perAction: 170_000n },
    redeem: { perTransaction: 26_000n, perAction: 48_000n },
    refund: { perTransaction: 26_000n, perAction: 48_000n },
  };

function priced(gas: { perTransaction: bigint; perAction: bigint }, weiPerGas: bigint): ActionFeeEstimate {
  return { perTransaction: gas.perTransaction * weiPerGas, perAction: gas.perAction * weiPerGas };
}

/** Fees at `weiPerGas` (what a transaction pays per gas when it lands: base fee plus priority fee). */
export function evmNetworkFees(weiPerGas: bigint): NetworkFeeEstimate {
  return {
    fill: priced(EVM_ACTION_GAS.fill, weiPerGas),
    redeem: priced(EVM_ACTION_GAS.redeem, weiPerGas),
    refund: priced(EVM_ACTION_GAS.refund, weiPerGas),
  };
}

/**
 * The chain's fees now. A base fee above the configured ceiling rejects: the solver could send nothing
 * there, so nothing may be quoted on it.
 */
export async function readEvmNetworkFees(
  client: Pick<PublicClient, "getBlock" | "estimateMaxPriorityFeePerGas">,
  chain: string,
  maxFeePerGasWei: bigint,
): Promise<NetworkFeeEstimate> {
  const [block, priority] = await Promise.all([
    client.getBlock({ blockTag: "latest" }),
    client.estimateMaxPriorityFeePerGas(),
  ]);
  if (block.baseFeePerGas === null) throw new Error(`chain ${chain} reports no base fee (pre-London?)`);
  if (block.baseFeePerGas > maxFeePerGasWei) {
    throw new FeeCeilingError(chain, block.baseFeePerGas, maxFeePerGasWei);
  }
  const weiPerGas = block.baseFeePerGas + priority;
  return evmNetworkFees(weiPerGas < maxFeePerGasWei ? weiPerGas : maxFeePerGasWei);
}

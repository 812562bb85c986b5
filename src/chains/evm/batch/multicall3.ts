/**
 * The standard Multicall3 batching contract: its canonical address (the same on nearly every EVM chain)
 * and the part of its interface the solver uses. `aggregate3` runs calls in order, each marked whether it
 * may fail; a call that may fail and does is undone alone, and its result says so.
 */
import { decodeFunctionResult, encodeFunctionData, type Address, type Hex } from "viem";

export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

export const multicall3Abi = [
  {
    type: "function",
    name: "aggregate3",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [
      {
        name: "returnData",
        type: "tuple[]",
        components: [
          { name: "success", type: "bool" },
          { name: "returnData", type: "bytes" },
        ],
      },
    ],
  },
  {
    type: "function",
    name: "aggregate3Value",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "value", type: "uint256" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [
      {
        name: "returnData",
        type: "tuple[]",
        components: [
          { name: "success", type: "bool" },
          { name: "returnData", type: "bytes" },
        ],
      },
    ],
  },
] as const;

/** One call of a batch and, after it ran, what it returned. */
export interface BatchedCall {
  target: Address;
  data: Hex;
}

export interface CallResult {
  success: boolean;
  returnData: Hex;
}

/**
 * `aggregate3` calldata running `calls` in order, each allowed to fail alone; with `allowFailure` false,
 * any failure undoes the batch (for a gas estimate that covers every call: with failures allowed, an
 * estimate finds the gas at which every call fails cheaply).
 */
export function aggregate3Data(calls: readonly BatchedCall[], allowFailure = true): Hex {
  return encodeFunctionData({
    abi: multicall3Abi,
    functionName: "aggregate3",
    args: [calls.map((c) => ({ target: c.target, allowFailure, callData: c.data }))],
  });
}

export function decodeAggregate3(result: Hex): CallResult[] {
  const decoded = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: result });
  return decoded.map((r) => ({ success: r.success, returnData: r.returnData }));
}

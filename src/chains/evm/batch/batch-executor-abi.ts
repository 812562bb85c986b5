/**
 * The interface of the project's BatchExecutor (contracts/evm/BatchExecutor.sol), the code the solver's
 * account delegates to with EIP-7702: `execute` makes every call from the account itself, each failing
 * alone, and only the account may call it.
 */
import { decodeFunctionResult, encodeFunctionData, type Address, type Hex } from "viem";
import type { CallResult } from "./multicall3.js";

export const batchExecutorAbi = [
  {
    type: "function",
    name: "execute",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "value", type: "uint256" },
          { name: "data", type: "bytes" },
        ],
      },
    ],
    outputs: [
      {
        name: "results",
        type: "tuple[]",
        components: [
          { name: "success", type: "bool" },
          { name: "returnData", type: "bytes" },
        ],
      },
    ],
  },
  { type: "error", name: "NotSelf", inputs: [{ name: "caller", type: "address" }] },
  {
    type: "error",
    name: "CallFailed",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "returnData", type: "bytes" },
    ],
  },
] as const;

export interface ValuedCall {
  target: Address;
  value: bigint;
  data: Hex;
}

/**
 * `execute` calldata making `calls` in order. Each fails alone unless `allowFailure` is false: a gas
 * estimate is asked of the batch with every call required to succeed, since with failures allowed the
 * cheapest way through is to let every call run out of gas.
 */
export function executeData(calls: readonly ValuedCall[], allowFailure = true): Hex {
  return encodeFunctionData({
    abi: batchExecutorAbi,
    functionName: "execute",
    args: [calls.map((c) => ({ target: c.target, allowFailure, value: c.value, data: c.data }))],
  });
}

export function decodeExecute(result: Hex): CallResult[] {
  const decoded = decodeFunctionResult({ abi: batchExecutorAbi, functionName: "execute", data: result });
  return decoded.map((r) => ({ success: r.success, returnData: r.returnData }));
}

import { encodeFunctionData, getAddress, type Address, type Hex } from "viem";
import type { ActionRequest } from "../chain.js";
import type { EvmAsset } from "./assets.js";
import { with0x } from "./client.js";
import { htlcAbi } from "./htlc-abi.js";

/** One contract call, ready to simulate and sign. */
export interface EvmCall {
  to: Address;
  data: Hex;
  value: bigint;
}

/** The HTLC call that carries one action on this chain. */
export function htlcCallFor(action: ActionRequest, asset: EvmAsset): EvmCall {
  const { params } = action;
  const swapId = with0x(params.swapId);
  switch (action.kind) {
    case "fill":
      return {
        to: asset.htlc,
        data: encodeFunctionData({
          abi: htlcAbi,
          functionName: "initiate",
          args: [getAddress(params.redeemer), params.timelock, params.amount, with0x(params.secretHash)],
        }),
        // The NativeHTLC requires msg.value == amount; the token HTLC pulls through transferFrom.
        value: asset.token === null ? params.amount : 0n,
      };
    case "redeem":
      if (action.secret === undefined || action.secret === "") {
        throw new Error(`redeem of order ${action.orderId} has no secret`);
      }
      return {
        to: asset.htlc,
        data: encodeFunctionData({
          abi: htlcAbi,
          functionName: "redeem",
          args: [swapId, with0x(action.secret)],
        }),
        value: 0n,
      };
    case "refund":
      return {
        to: asset.htlc,
        data: encodeFunctionData({ abi: htlcAbi, functionName: "refund", args: [swapId] }),
        value: 0n,
      };
    case "instant_refund":
      // The solver is the redeemer of the source it declines, so no signature is needed.
      return {
        to: asset.htlc,
        data: encodeFunctionData({ abi: htlcAbi, functionName: "instantRefund", args: [swapId, "0x"] }),
        value: 0n,
      };
  }
}

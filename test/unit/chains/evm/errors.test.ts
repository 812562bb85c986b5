import { describe, expect, it } from "vitest";
import { CallExecutionError, RawContractError, encodeErrorResult, parseAbi } from "viem";
import {
  decodeRevert,
  isAlreadyKnown,
  isNonceTooLow,
  revertDataOf,
} from "../../../../src/chains/evm/errors.js";

const abi = parseAbi(["error OrderNotExpired(bytes32 orderID)"]);
const ORDER = `0x${"ab".repeat(32)}` as const;

/** The error chain viem produces for a reverted eth_call. */
function reverted(data: `0x${string}`): CallExecutionError {
  return new CallExecutionError(new RawContractError({ data }), {
    account: undefined,
    to: ORDER.slice(0, 42) as `0x${string}`,
  });
}

describe("decodeRevert", () => {
  it("names a custom error the ABI knows, with its arguments", () => {
    const data = encodeErrorResult({ abi, errorName: "OrderNotExpired", args: [ORDER] });
    expect(revertDataOf(reverted(data))).toBe(data);
    expect(decodeRevert(reverted(data), abi)).toEqual({
      errorName: "OrderNotExpired",
      reason: `OrderNotExpired(${ORDER})`,
      data,
    });
  });

  it("reads Error(string) reverts", () => {
    const data = encodeErrorResult({
      abi: parseAbi(["error Error(string)"]),
      errorName: "Error",
      args: ["ERC20: insufficient allowance"],
    });
    expect(decodeRevert(reverted(data), abi)).toMatchObject({
      errorName: "Error",
      reason: "ERC20: insufficient allowance",
    });
  });

  it("reports an unknown custom error by selector", () => {
    expect(decodeRevert(reverted("0xdeadbeef"), abi)).toMatchObject({
      errorName: null,
      reason: "unknown custom error 0xdeadbeef",
    });
  });

  it("falls back to the message when there is no revert data", () => {
    expect(decodeRevert(new Error("socket hang up"), abi)).toEqual({
      errorName: null,
      reason: "socket hang up",
      data: null,
    });
  });
});

describe("node messages", () => {
  it("recognises a transaction the node already holds", () => {
    expect(isAlreadyKnown("already known")).toBe(true);
    expect(isAlreadyKnown("transaction already imported")).toBe(true);
    expect(isAlreadyKnown("replacement transaction underpriced")).toBe(false);
  });

  it("recognises a nonce the chain has passed", () => {
    expect(isNonceTooLow("nonce too low: next nonce 5, tx nonce 3")).toBe(true);
    expect(isNonceTooLow("insufficient funds for gas * price + value")).toBe(false);
  });
});

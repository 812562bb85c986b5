import { describe, expect, it } from "vitest";
import { decodeFunctionData, type Address } from "viem";
import type { ActionKind, ActionRequest } from "../../../../src/chains/chain.js";
import type { EvmAsset } from "../../../../src/chains/evm/assets.js";
import { htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";
import { htlcCallFor } from "../../../../src/chains/evm/htlc-calls.js";

const HTLC: Address = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const REDEEMER: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SWAP_ID = "ab".repeat(32);
const SECRET_HASH = "cd".repeat(32);
const SECRET = "11".repeat(32);

function asset(native: boolean): EvmAsset {
  return {
    id: "c:X",
    htlc: HTLC,
    token: native ? null : "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    config: { id: "c:X", chain: "c", symbol: "X", decimals: 6, tokenAddress: "", htlcAddress: HTLC },
  };
}

function action(kind: ActionKind, secret?: string): ActionRequest {
  return {
    kind,
    orderId: "o1",
    params: {
      chain: "c",
      asset: "c:X",
      swapId: SWAP_ID,
      initiator: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      redeemer: REDEEMER,
      secretHash: SECRET_HASH,
      timelock: 300n,
      amount: 12_345n,
    },
    ...(secret !== undefined ? { secret } : {}),
  };
}

describe("htlcCallFor", () => {
  it("fills with initiate(redeemer, timelock, amount, secretHash), selector 0x97ffc7ae", () => {
    const call = htlcCallFor(action("fill"), asset(false));
    expect(call.to).toBe(HTLC);
    expect(call.data.slice(0, 10)).toBe("0x97ffc7ae");
    expect(call.value).toBe(0n);
    const decoded = decodeFunctionData({ abi: htlcAbi, data: call.data });
    expect(decoded.functionName).toBe("initiate");
    expect(decoded.args).toEqual([REDEEMER, 300n, 12_345n, `0x${SECRET_HASH}`]);
  });

  it("sends the amount as value to the NativeHTLC", () => {
    expect(htlcCallFor(action("fill"), asset(true)).value).toBe(12_345n);
  });

  it("redeems with the swap id and the secret", () => {
    const decoded = decodeFunctionData({
      abi: htlcAbi,
      data: htlcCallFor(action("redeem", SECRET), asset(true)).data,
    });
    expect(decoded).toEqual({ functionName: "redeem", args: [`0x${SWAP_ID}`, `0x${SECRET}`] });
  });

  it("refuses a redeem without a secret", () => {
    expect(() => htlcCallFor(action("redeem"), asset(true))).toThrow("redeem of order o1 has no secret");
  });

  it("refunds and instantly refunds by swap id, without a signature for the redeemer's own call", () => {
    const refund = decodeFunctionData({
      abi: htlcAbi,
      data: htlcCallFor(action("refund"), asset(false)).data,
    });
    expect(refund).toEqual({ functionName: "refund", args: [`0x${SWAP_ID}`] });
    const instant = htlcCallFor(action("instant_refund"), asset(false));
    expect(decodeFunctionData({ abi: htlcAbi, data: instant.data })).toEqual({
      functionName: "instantRefund",
      args: [`0x${SWAP_ID}`, "0x"],
    });
    expect(instant.value).toBe(0n);
  });
});

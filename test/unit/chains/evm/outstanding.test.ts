import { describe, expect, it } from "vitest";
import { encodeFunctionData, getAddress, keccak256, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { erc20Abi, htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";
import { nativeCost, outstandingCost, tokenCost } from "../../../../src/chains/evm/outstanding.js";

const account = privateKeyToAccount(`0x${"11".repeat(32)}`);
const htlc = getAddress("0x00000000000000000000000000000000000000a7");
const redeemer = getAddress("0x00000000000000000000000000000000000000b2");
const token = getAddress("0x00000000000000000000000000000000000000c3");
const contracts = { htlc, token };

async function signed(nonce: number, call: { to: `0x${string}`; data: Hex; value: bigint }, maxFee = 10n) {
  const raw = await account.signTransaction({
    type: "eip1559",
    chainId: 31337,
    nonce,
    to: call.to,
    data: call.data,
    value: call.value,
    gas: 100_000n,
    maxFeePerGas: maxFee,
    maxPriorityFeePerGas: 1n,
  });
  return { raw, nonce: BigInt(nonce), txHash: keccak256(raw) };
}

const initiate = (amount: bigint) =>
  encodeFunctionData({
    abi: htlcAbi,
    functionName: "initiate",
    args: [redeemer, 600n, amount, `0x${"cd".repeat(32)}`],
  });

describe("what journaled EVM attempts will still take from the account", () => {
  it("costs value plus the whole gas allowance in the native coin, and initiated tokens in the token", async () => {
    const fill = await signed(3, { to: htlc, data: initiate(990n), value: 0n });
    expect(nativeCost(fill)).toBe(100_000n * 10n);
    expect(tokenCost(fill, contracts)).toBe(990n);
    const other = getAddress("0x00000000000000000000000000000000000000ff");
    expect(tokenCost(fill, { htlc: other, token })).toBe(0n);
    const native = await signed(4, { to: htlc, data: initiate(5n), value: 5n });
    expect(nativeCost(native)).toBe(5n + 1_000_000n);
    const redeem = await signed(5, {
      to: htlc,
      data: encodeFunctionData({
        abi: htlcAbi,
        functionName: "redeem",
        args: [`0x${"ab".repeat(32)}`, `0x${"01".repeat(32)}`],
      }),
      value: 0n,
    });
    expect(tokenCost(redeem, contracts)).toBe(0n);
  });

  it("counts the token an operator's transfer pays out, and nothing for an approve", async () => {
    const transfer = await signed(9, {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [redeemer, 777n] }),
      value: 0n,
    });
    expect(tokenCost(transfer, contracts)).toBe(777n);
    expect(
      tokenCost(transfer, { htlc, token: getAddress("0x00000000000000000000000000000000000000dd") }),
    ).toBe(0n);
    const approve = await signed(10, {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [htlc, 5n] }),
      value: 0n,
    });
    expect(tokenCost(approve, contracts)).toBe(0n);
  });

  it("counts unmined nonces once each, at their dearest attempt", async () => {
    const first = await signed(7, { to: htlc, data: initiate(100n), value: 0n }, 10n);
    const bumped = await signed(7, { to: htlc, data: initiate(100n), value: 0n }, 20n);
    const next = await signed(8, { to: htlc, data: initiate(50n), value: 0n }, 10n);
    const mined = await signed(6, { to: htlc, data: initiate(1_000n), value: 0n }, 10n);
    const attempts = [first, bumped, next, mined];
    expect(outstandingCost(attempts, 7n, (a) => tokenCost(a, contracts))).toBe(150n);
    expect(outstandingCost(attempts, 7n, nativeCost)).toBe(2_000_000n + 1_000_000n);
    expect(outstandingCost(attempts, 9n, nativeCost)).toBe(0n);
  });
});

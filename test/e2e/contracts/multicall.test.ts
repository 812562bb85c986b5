/**
 * The project's Multicall3-compatible contract on a real anvil, placed at Multicall3's canonical address
 * the way the localnet does: calls that may fail fail alone, a call that may not undoes the batch, and
 * value-carrying batches must spend exactly what they were sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeErrorResult, encodeFunctionData, parseEther, type Address, type Hex } from "viem";
import { loadArtifact } from "../../../src/chains/evm/artifacts.js";
import {
  aggregate3Data,
  decodeAggregate3,
  MULTICALL3_ADDRESS,
  multicall3Abi,
} from "../../../src/chains/evm/batch/multicall3.js";
import { erc20Abi, htlcAbi } from "../../../src/chains/evm/htlc-abi.js";
import {
  deployNativeHtlc,
  deployTestToken,
  placeMulticall3,
} from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { newSecret, send, startChainFixture, type ChainFixture } from "./fixture.js";
import { orderIdOf, readOrder } from "./htlc-helpers.js";

const CHAIN_ID = 62_378;

let fx: ChainFixture;
let token: Address;
let nativeHtlc: Address;

beforeAll(async () => {
  fx = await startChainFixture(CHAIN_ID);
  await placeMulticall3(fx.anvil.rpcUrl);
  token = await deployTestToken(fx.deployer.wallet, fx.pub, { name: "T", symbol: "T", decimals: 6 });
  nativeHtlc = await deployNativeHtlc(fx.deployer.wallet, fx.pub);
});

afterAll(async () => {
  await fx?.stop();
});

const balanceOfCall = (owner: Address): { target: Address; data: Hex } => ({
  target: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] }),
});

describe("Multicall at the canonical Multicall3 address", () => {
  it("is the project's contract's runtime code", async () => {
    const code = await fx.pub.getCode({ address: MULTICALL3_ADDRESS });
    expect(code).toBe(loadArtifact("Multicall").deployedBytecode);
  });

  it("returns each call's result, a failed call marked failed and the others answered", async () => {
    const calls = [
      balanceOfCall(fx.alice.address),
      // A call the token does not know: it fails, alone.
      { target: token, data: "0xdeadbeef" as Hex },
      balanceOfCall(fx.bob.address),
    ];
    const { data } = await fx.pub.call({ to: MULTICALL3_ADDRESS, data: aggregate3Data(calls) });
    const results = decodeAggregate3(data ?? "0x");
    expect(results.map((r) => r.success)).toEqual([true, false, true]);
    expect(BigInt(results[0]?.returnData ?? "0x0")).toBe(0n);
  });

  it("undoes the whole batch when a call that may not fail does, naming its index", async () => {
    const data = encodeFunctionData({
      abi: multicall3Abi,
      functionName: "aggregate3",
      args: [
        [
          { target: token, allowFailure: true, callData: "0xdeadbeef" },
          { target: token, allowFailure: false, callData: "0xdeadbeef" },
        ],
      ],
    });
    const error = await fx.pub.call({ to: MULTICALL3_ADDRESS, data }).catch((e: unknown) => e);
    const revert = (error as { walk: (f: (e: unknown) => boolean) => { data?: Hex } | null }).walk(
      (e) => typeof (e as { data?: unknown }).data === "string",
    );
    const decoded = decodeErrorResult({ abi: loadArtifact("Multicall").abi, data: revert?.data ?? "0x" });
    expect(decoded.errorName).toBe("CallFailed");
    expect(decoded.args?.[0]).toBe(1n);
  });

  it("keeps a failed call's effects out and the others' in, in one mined transaction", async () => {
    const kept = newSecret();
    const amount = parseEther("0.001");
    // Each initiate needs its value; aggregate3Value hands each call its own.
    const initiate = (secretHash: Hex, value: bigint) => ({
      target: nativeHtlc,
      allowFailure: true,
      value,
      callData: encodeFunctionData({
        abi: htlcAbi,
        functionName: "initiate",
        args: [fx.bob.address, 20n, amount, secretHash],
      }),
    });
    // The second carries the wrong value: the HTLC refuses it; the first still lands.
    const receipt = await send(fx, fx.alice, {
      address: MULTICALL3_ADDRESS,
      abi: multicall3Abi,
      functionName: "aggregate3Value",
      args: [[initiate(kept.secretHash, amount), initiate(newSecret().secretHash, amount - 1n)]],
      value: amount * 2n - 1n,
    });
    const orderId = orderIdOf(fx, nativeHtlc, {
      initiator: MULTICALL3_ADDRESS,
      redeemer: fx.bob.address,
      timelock: 20n,
      amount,
      secretHash: kept.secretHash,
    });
    expect((await readOrder(fx, nativeHtlc, orderId)).initiatedAt).toBe(receipt.blockNumber);
    expect(await fx.pub.getBalance({ address: nativeHtlc })).toBe(amount);
  });

  it("refuses a value batch whose calls do not spend exactly what it was sent", async () => {
    const data = encodeFunctionData({
      abi: multicall3Abi,
      functionName: "aggregate3Value",
      args: [[{ target: fx.bob.address, allowFailure: true, value: 5n, callData: "0x" }]],
    });
    await expect(
      fx.pub.call({ account: fx.alice.address, to: MULTICALL3_ADDRESS, data, value: 6n }),
    ).rejects.toThrow();
    const ok = await fx.pub.call({ account: fx.alice.address, to: MULTICALL3_ADDRESS, data, value: 5n });
    expect(ok.data).toBeDefined();
  });
});

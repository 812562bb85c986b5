/**
 * The code at Multicall3's canonical address is checked before anything goes through it. On an anvil
 * whose Multicall3 address holds other code (here: code that answers every call with a forged
 * `aggregate3` result claiming the orders read are locked for the solver), the chain's orders are read
 * one by one from their HTLC, redeems and refunds are not batched, and an error names the chain and
 * the address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concat, encodeFunctionResult, numberToHex, size, type Address, type Hex } from "viem";
import { MULTICALL3_ADDRESS, multicall3Abi } from "../../../../src/chains/evm/batch/multicall3.js";
import { htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";
import { createEvmFamily, type EvmFamily } from "../../../../src/chains/evm/index.js";
import type { EvmReader } from "../../../../src/chains/evm/reader.js";
import { placeMulticall3 } from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { CapturedLog } from "../../../support/localnet.js";
import { MemoryJournal } from "../../../support/memory-journal.js";
import {
  TOKEN_ASSET,
  startEvmFamilyFixture,
  terms,
  withSwapId,
  type EvmFamilyFixture,
} from "./evm-family-fixture.js";

let f: EvmFamilyFixture;

beforeAll(async () => {
  f = await startEvmFamilyFixture(31_406);
  f.config = { ...f.config, maxBatch: 50 };
});

afterAll(async () => {
  await f?.stop();
});

/** Runtime code returning `answer` to any call: CODECOPY of the bytes after this 12-byte prefix, RETURN. */
function answering(answer: Hex): Hex {
  const length = size(answer);
  return concat(["0x61", numberToHex(length, { size: 2 }), "0x80600c6000396000f3", answer]);
}

/** An aggregate3 result claiming each of `count` orders is locked by `initiator` for `redeemer`. */
function forgedOrders(count: number, initiator: Address, redeemer: Address): Hex {
  const order = encodeFunctionResult({
    abi: htlcAbi,
    functionName: "orders",
    result: [initiator, redeemer, 1n, 50n, 10n ** 9n, 0n],
  });
  return encodeFunctionResult({
    abi: multicall3Abi,
    functionName: "aggregate3",
    result: Array.from({ length: count }, () => ({ success: true, returnData: order })),
  });
}

function family(log: CapturedLog): EvmFamily {
  return createEvmFamily({
    config: f.config,
    privateKey: f.solverKey,
    journal: new MemoryJournal(),
    logger: log.logger,
  });
}

/** Two sources nobody locked. */
const absentSources = (reader: EvmReader) =>
  [0, 1].map(() => withSwapId(reader, terms(TOKEN_ASSET, f.user.address, f.solver, 700n, 50n)));

describe("Multicall3's code", () => {
  it("other code at its address is not trusted: orders are read from their HTLC, nothing is batched", async () => {
    await f.fx.testClient.setCode({
      address: MULTICALL3_ADDRESS,
      bytecode: answering(forgedOrders(2, f.user.address, f.solver)),
    });
    const log = new CapturedLog();
    const { reader, executor } = family(log);
    const sources = absentSources(reader);
    // Read in the same turn: as a round does, they would share one aggregate3 call.
    const states = await Promise.all(sources.map((s) => reader.readHtlc(s.params)));
    for (const state of states) expect(state).toMatchObject({ locks: [], onChain: null });

    await executor.prepare([]);
    expect(executor.maxBatchFor("redeem")).toBe(1);
    expect(executor.maxBatchFor("refund")).toBe(1);
    const refusal = log.find((l) => String(l.msg).startsWith("the code at Multicall3's address is not"));
    expect(refusal).toMatchObject({ level: 50, chain: "anvil", multicall3: MULTICALL3_ADDRESS });
  });

  it("the project's Multicall at that address is trusted: orders are read together, redeems batch", async () => {
    await placeMulticall3(f.fx.anvil.rpcUrl);
    const log = new CapturedLog();
    const { reader, executor } = family(log);
    const sources = absentSources(reader);
    const states = await Promise.all(sources.map((s) => reader.readHtlc(s.params)));
    for (const state of states) expect(state).toMatchObject({ locks: [], onChain: null });
    await executor.prepare([]);
    expect(executor.maxBatchFor("redeem")).toBe(50);
    expect(log.lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });
});

/**
 * EvmExecutor batching on a real anvil (Prague): redeems and refunds of many orders through Multicall3's
 * aggregate3, fills through the account's EIP-7702 delegation to the BatchExecutor, each call failing
 * alone; a batch that reverts or whose nonce is taken; a batch journaled but never broadcast before a
 * crash; and the gas a batched redeem costs per order against a lone one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keccak256, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ActionRequest, HtlcParams, SignedTx } from "../../../../src/chains/chain.js";
import { MULTICALL3_ADDRESS } from "../../../../src/chains/evm/batch/multicall3.js";
import { Multicall3Check } from "../../../../src/chains/evm/batch/multicall3-code.js";
import { BatchedOrderReads } from "../../../../src/chains/evm/batch/order-reads.js";
import { delegationOf } from "../../../../src/chains/evm/batch/delegation.js";
import { EvmExecutor } from "../../../../src/chains/evm/executor.js";
import { EvmReader } from "../../../../src/chains/evm/reader.js";
import { htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";
import { Journal } from "../../../../src/journal/journal.js";
import { deployBatchExecutor, placeMulticall3 } from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { FaultProxy } from "../../../support/fault-proxy.js";
import { MemoryJournal } from "../../../support/memory-journal.js";
import { roundTripsInARow } from "../../../support/round-trips.js";
import { mine, send } from "../../contracts/fixture.js";
import {
  actionOf,
  NATIVE_ASSET,
  runActions,
  settleActions,
  TOKEN_ASSET,
  startEvmFamilyFixture,
  terms,
  userInitiates,
  withSwapId,
  type EvmFamilyFixture,
} from "./evm-family-fixture.js";

let f: EvmFamilyFixture;
let reader: EvmReader;
let journal: MemoryJournal;
let executor: EvmExecutor;
let batchExecutor: Address;

beforeAll(async () => {
  f = await startEvmFamilyFixture(31_405);
  await placeMulticall3(f.fx.anvil.rpcUrl);
  batchExecutor = await deployBatchExecutor(f.fx.deployer.wallet, f.fx.pub);
  f.config = { ...f.config, maxBatch: 50, batchFills: "eip7702", batchExecutor };
  reader = new EvmReader(f.config);
  journal = new MemoryJournal();
  executor = new EvmExecutor({ config: f.config, privateKey: f.solverKey, journal });
  await executor.prepare([TOKEN_ASSET]);
});

afterAll(async () => {
  await f?.stop();
});

const run = (actions: ActionRequest[]) => runActions(executor, journal, actions);
const settle = (signed: SignedTx, actions: ActionRequest[]) =>
  settleActions(executor, journal.record(signed), actions);

const fillTerms = (asset: string, amount = 500n, timelock = 20n): ReturnType<typeof terms> =>
  withSwapId(reader, terms(asset, f.solver, f.user.address, amount, timelock));
const fillOf = (t: ReturnType<typeof terms>): ActionRequest => actionOf("fill", t.params);

async function lockedSources(count: number, asset = TOKEN_ASSET): Promise<ReturnType<typeof terms>[]> {
  const sources: ReturnType<typeof terms>[] = [];
  for (let i = 0; i < count; i++) {
    const source = withSwapId(reader, terms(asset, f.user.address, f.solver, 700n + BigInt(i), 50n));
    await userInitiates(f, source.params);
    sources.push(source);
  }
  return sources;
}

const redeems = (sources: ReturnType<typeof terms>[]): ActionRequest[] =>
  sources.map((s) => actionOf("redeem", s.params, s.secret.slice(2)));

const spendKinds = async (params: HtlcParams): Promise<(string | undefined)[]> =>
  (await reader.readHtlc(params)).locks.map((l) => l.spend?.kind);

describe("EvmExecutor batches", () => {
  it("batches redeems and refunds through Multicall3 and fills through the delegated account", async () => {
    expect(executor.maxBatchFor("redeem")).toBe(50);
    expect(executor.maxBatchFor("refund")).toBe(50);
    expect(executor.maxBatchFor("fill")).toBe(50);
    const code = await f.fx.pub.getCode({ address: f.solver });
    expect(delegationOf(code)?.toLowerCase()).toBe(batchExecutor.toLowerCase());
  });

  it("fills token and native orders in one transaction, the solver initiator and funder of each", async () => {
    const fills = [fillTerms(TOKEN_ASSET), fillTerms(NATIVE_ASSET, 10n ** 15n), fillTerms(TOKEN_ASSET, 900n)];
    const tokenBefore = await executor.balance(TOKEN_ASSET);
    const { signed, status } = await run(fills.map((t) => actionOf("fill", t.params)));
    expect(signed.omitted).toBeUndefined();
    expect(status).toMatchObject({ state: "confirmed" });
    expect(status.state === "confirmed" && status.failedActions).toBeFalsy();
    for (const { params } of fills) {
      expect(await reader.readHtlc(params)).toMatchObject({
        locks: [{ value: params.amount, spend: null }],
        onChain: { initiator: f.solver },
      });
    }
    expect(await executor.balance(TOKEN_ASSET)).toBe(tokenBefore - 1_400n);
  });

  it("waits two round trips in a row for a batch of fills, three for a lone one", async () => {
    // Every request held 100 ms: requests sent one after another show up as a chain of round trips.
    const proxy = new FaultProxy(f.fx.anvil.rpcUrl, { config: { delayMs: 100 } });
    await proxy.start();
    try {
      const slow = new EvmExecutor({
        config: { ...f.config, rpcUrls: [proxy.url] },
        privateKey: f.solverKey,
        journal,
      });
      await slow.prepare([TOKEN_ASSET]);
      const sendThrough = async (actions: ActionRequest[]) => {
        proxy.resetCounts();
        const signed = await slow.build(actions);
        const attempt = journal.record(signed);
        await slow.broadcast(signed);
        const trips = roundTripsInARow(proxy.timeline());
        expect(await settleActions(executor, attempt, actions)).toMatchObject({ state: "confirmed" });
        return trips;
      };
      // Fees, nonce, simulation and gas side by side; then the send.
      const batch = await sendThrough([fillTerms(TOKEN_ASSET), fillTerms(TOKEN_ASSET, 600n)].map(fillOf));
      expect(batch.count, JSON.stringify(batch.chain)).toBe(2);
      // A lone fill first reads its order and allowance (side by side).
      const lone = await sendThrough([fillOf(fillTerms(TOKEN_ASSET, 700n))]);
      expect(lone.count, JSON.stringify(lone.chain)).toBe(3);
    } finally {
      await proxy.stop();
    }
  });

  it("leaves out a fill already on chain as done, and a fill with a bad timelock as failed", async () => {
    const done = fillTerms(TOKEN_ASSET);
    await run([actionOf("fill", done.params)]);
    const bad = fillTerms(TOKEN_ASSET, 500n, 0n);
    const good = fillTerms(TOKEN_ASSET);
    const { signed, status } = await run([done, bad, good].map((t) => actionOf("fill", t.params)));
    expect(signed.omitted).toEqual([
      { index: 0, reason: expect.stringMatching(/already on chain/), alreadyDone: true },
      { index: 1, reason: expect.stringMatching(/fill would revert/), alreadyDone: false },
    ]);
    expect(status.state).toBe("confirmed");
    expect((await reader.readHtlc(good.params)).onChain?.initiator).toBe(f.solver);
  });

  it("redeems many sources in one transaction; a wrong secret is left out alone", async () => {
    const sources = await lockedSources(4);
    const actions = redeems(sources);
    const wrong = fillTerms(TOKEN_ASSET).secret.slice(2);
    actions[2] = actionOf("redeem", sources[2]!.params, wrong);
    const before = await executor.balance(TOKEN_ASSET);
    const { signed, status } = await run(actions);
    expect(signed.omitted).toEqual([
      { index: 2, reason: expect.stringMatching(/IncorrectSecret/), alreadyDone: false },
    ]);
    expect(status.state).toBe("confirmed");
    for (const i of [0, 1, 3]) expect(await spendKinds(sources[i]!.params)).toEqual(["redeem"]);
    expect(await spendKinds(sources[2]!.params)).toEqual([undefined]);
    expect(await executor.balance(TOKEN_ASSET)).toBe(before + 700n + 701n + 703n);
  });

  it("refunds expired fills in one transaction", async () => {
    const fills = [fillTerms(TOKEN_ASSET, 300n, 3n), fillTerms(NATIVE_ASSET, 300n, 3n)];
    await run(fills.map((t) => actionOf("fill", t.params)));
    await mine(f.fx, 3);
    const { signed, status } = await run(fills.map((t) => actionOf("refund", t.params)));
    expect(signed.omitted).toBeUndefined();
    expect(status.state).toBe("confirmed");
    for (const { params } of fills) expect(await spendKinds(params)).toEqual(["refund"]);
  });

  it("reports only the action whose call failed inside a mined batch; the others are done", async () => {
    const sources = await lockedSources(3);
    const actions = redeems(sources);
    const signed = await executor.build(actions);
    expect(signed.omitted).toBeUndefined();
    // Someone else redeems the second source (for the solver) between signing and mining.
    await send(f.fx, f.user, {
      address: f.tokenHtlc,
      abi: htlcAbi,
      functionName: "redeem",
      args: [`0x${sources[1]!.params.swapId}`, sources[1]!.secret],
    });
    await executor.broadcast(signed);
    const status = await settle(signed, actions);
    expect(status).toMatchObject({
      state: "confirmed",
      failedActions: [
        { index: 1, reason: expect.stringMatching(/inside batch .*OrderFulfilled|inside batch/) },
      ],
    });
    for (const { params } of sources) expect(await spendKinds(params)).toEqual(["redeem"]);
  });

  it("a batch whose transaction reverts fails as a whole", async () => {
    const sources = await lockedSources(2);
    const actions = redeems(sources);
    const signed = await executor.build(actions);
    const multicall = await f.fx.pub.getCode({ address: MULTICALL3_ADDRESS });
    // PUSH0 PUSH0 REVERT: the batching contract now reverts every call.
    await f.fx.testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: "0x5f5ffd" });
    try {
      await executor.broadcast(signed);
      const status = await settle(signed, actions);
      expect(status.state).toBe("failed");
      for (const { params } of sources) expect(await spendKinds(params)).toEqual([undefined]);
    } finally {
      await f.fx.testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall ?? "0x" });
    }
  });

  it("a batch whose nonce another transaction took is dead, its actions free to go again", async () => {
    const sources = await lockedSources(2);
    const actions = redeems(sources);
    const signed = await executor.build(actions);
    const solver = privateKeyToAccount(f.solverKey);
    const fees = await f.fx.pub.estimateFeesPerGas();
    const raw = await solver.signTransaction({
      type: "eip1559",
      chainId: f.config.chainId,
      nonce: Number(signed.nonce),
      to: f.solver,
      value: 0n,
      gas: 100_000n,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 2n,
    });
    await f.fx.pub.request({ method: "eth_sendRawTransaction", params: [raw] });
    await f.fx.pub.waitForTransactionReceipt({ hash: keccak256(raw) });
    const status = await settle(signed, actions);
    expect(status.state).toBe("dead");
    for (const { params } of sources) expect(await spendKinds(params)).toEqual([undefined]);
  });

  it("a batch journaled before a crash is one attempt of every action in it, sent once after restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "batch-crash-"));
    const path = join(dir, "journal.sqlite");
    try {
      const sources = await lockedSources(3);
      const actions = redeems(sources);
      let store = new Journal(path);
      const ids = actions.map((a) => {
        const claim = store.claimAction(a);
        if (!claim.ok) throw new Error("claim refused");
        return claim.action.id;
      });
      const signed = await executor.build(actions);
      store.recordSigned(ids, signed);
      // Crash: the process dies before broadcasting.
      store.close();
      store = new Journal(path);
      const attempts = ids.map((id) => store.attemptsOfAction(id).map((a) => a.txHash));
      expect(attempts).toEqual(ids.map(() => [signed.txHash]));
      for (const a of actions) expect(store.claimAction(a)).toMatchObject({ ok: true, created: false });
      const live = store.liveAttempts(f.config.name);
      expect(live.map((a) => a.txHash)).toEqual([signed.txHash]);
      const nonceBefore = await f.fx.pub.getTransactionCount({ address: f.solver });
      // After restart the same bytes go out, twice over even: the node mines them once.
      await executor.broadcast({ raw: live[0]!.raw, txHash: live[0]!.txHash });
      await executor.broadcast({ raw: live[0]!.raw, txHash: live[0]!.txHash });
      const status = await settle(signed, actions);
      expect(status.state).toBe("confirmed");
      expect(await f.fx.pub.getTransactionCount({ address: f.solver })).toBe(nonceBefore + 1);
      for (const { params } of sources) expect(await spendKinds(params)).toEqual(["redeem"]);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The HTLC's own redeem call (five cold order slots, a fresh fulfilledAt, its event and the transfer)
  // costs about 39 000 gas, some 57 % of a lone redeem transaction: the floor any batch can reach. The
  // aggregate3 encoding adds about 2 500 gas of calldata per call on top.
  it("reads many orders in one Multicall3 call, and one by one where there is none", async () => {
    const sources = await lockedSources(4);
    const absent = fillTerms(TOKEN_ASSET);
    const ids = [...sources, absent].map((t) => `0x${t.params.swapId}` as Hex);
    const counting = (code: "real" | "none") => {
      const counts = { call: 0, readContract: 0 };
      const pub = f.fx.pub;
      return {
        counts,
        client: {
          getCode: (args: { address: Address }) =>
            code === "real" ? pub.getCode(args) : Promise.resolve(undefined),
          call: ((args) => {
            counts.call++;
            return pub.call(args);
          }) as typeof pub.call,
          readContract: ((args) => {
            counts.readContract++;
            return pub.readContract(args);
          }) as typeof pub.readContract,
        },
      };
    };
    const alone = await Promise.all(
      ids.map((id) =>
        f.fx.pub.readContract({ address: f.tokenHtlc, abi: htlcAbi, functionName: "orders", args: [id] }),
      ),
    );
    const batched = counting("real");
    const reads = new BatchedOrderReads(batched.client, new Multicall3Check(batched.client, "anvil"));
    expect(await Promise.all(ids.map((id) => reads.read(f.tokenHtlc, id)))).toEqual(alone);
    expect(batched.counts).toEqual({ call: 1, readContract: 0 });
    expect(alone[4]?.[0]).toBe("0x0000000000000000000000000000000000000000");
    const plain = counting("none");
    const one = new BatchedOrderReads(plain.client, new Multicall3Check(plain.client, "anvil"));
    expect(await Promise.all(ids.map((id) => one.read(f.tokenHtlc, id)))).toEqual(alone);
    expect(plain.counts).toEqual({ call: 0, readContract: 5 });
  });

  it("a full batch of redeems (the default 50) costs at most 60 % of a lone redeem per order", async () => {
    const [alone] = await lockedSources(1);
    const lone = await run(redeems([alone!]));
    const loneGas = await gasUsed(lone.signed.txHash);
    const perOrder: Record<number, bigint> = {};
    for (const size of [5, 20, 50]) {
      const batch = await run(redeems(await lockedSources(size)));
      expect(batch.status.state).toBe("confirmed");
      perOrder[size] = (await gasUsed(batch.signed.txHash)) / BigInt(size);
    }
    console.info(
      `redeem gas: alone ${loneGas}; batched per order: 5 → ${perOrder[5]} (${pct(perOrder[5]!, loneGas)}), ` +
        `20 → ${perOrder[20]} (${pct(perOrder[20]!, loneGas)}), 50 → ${perOrder[50]} (${pct(perOrder[50]!, loneGas)})`,
    );
    expect(perOrder[50]! * 100n).toBeLessThanOrEqual(loneGas * 60n);
    expect(perOrder[50]!).toBeLessThan(perOrder[5]!);
  });
});

async function gasUsed(txHash: string): Promise<bigint> {
  return (await f.fx.pub.getTransactionReceipt({ hash: txHash as Hex })).gasUsed;
}

function pct(part: bigint, whole: bigint): string {
  return `${Number((part * 1000n) / whole) / 10} %`;
}

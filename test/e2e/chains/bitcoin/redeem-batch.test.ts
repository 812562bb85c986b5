import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../../src/chains/chain.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { roundTripsInARow } from "../../../support/round-trips.js";
import {
  action,
  delayedBackend,
  htlcParams,
  newSecret,
  spendAction,
  startBitcoinEnv,
  userFunds,
  type BitcoinEnv,
} from "./support.js";

let env: BitcoinEnv;

beforeAll(async () => {
  env = await startBitcoinEnv();
});

afterAll(async () => {
  await env?.stop();
});

/** A source HTLC the user funds and the solver redeems. */
function sourceHtlc(amount: bigint) {
  const { secret, secretHash } = newSecret();
  const params = htlcParams(env.user.key, env.solverKey, secretHash, amount, 144n);
  return { secret, params, htlc: env.executor.reader.htlcOf(params) };
}

async function redeemAndConfirm(actions: ReturnType<typeof action>[]): Promise<Transaction> {
  const signed = await env.executor.build(actions);
  env.journal.record(signed);
  await env.executor.broadcast(signed);
  await env.mine(1);
  expect(await env.executor.txStatus(env.journal.attempts.at(-1)!, [])).toMatchObject({ state: "confirmed" });
  env.journal.settle(signed.txHash);
  return Transaction.fromHex(signed.raw);
}

describe("Bitcoin redeems", () => {
  it("spend every funding output of an HTLC funded twice", async () => {
    const source = sourceHtlc(70_000n);
    await userFunds(env, [{ script: source.htlc.outputScript, value: 40_000n }]);
    await env.mine(1);
    await userFunds(env, [{ script: source.htlc.outputScript, value: 30_000n }]);
    await env.mine(1);
    const before = await env.executor.reader.readHtlc(source.params);
    expect(before.locks.map((l) => l.value)).toEqual([40_000n, 30_000n]);

    const tx = await redeemAndConfirm([await spendAction(env, "redeem", source.params, source.secret)]);
    expect(tx.ins).toHaveLength(2);
    expect(tx.outs).toHaveLength(1);
    const after = await env.executor.reader.readHtlc(source.params);
    expect(after.secret).toBe(source.secret);
    expect(after.locks.map((l) => l.spend?.kind)).toEqual(["redeem", "redeem"]);
  });

  it("redeem ten HTLCs in one transaction (and report its size against a single redeem)", async () => {
    const sources = Array.from({ length: 10 }, (_, i) => sourceHtlc(20_000n + BigInt(i) * 1_000n));
    const single = sourceHtlc(20_000n);
    await userFunds(
      env,
      [...sources, single].map((s) => ({ script: s.htlc.outputScript, value: s.params.amount })),
    );
    await env.mine(1);
    const balanceBefore = await env.executor.balance("bitcoin_regtest:btc");

    const batch = await redeemAndConfirm(
      await Promise.all(sources.map((s) => spendAction(env, "redeem", s.params, s.secret))),
    );
    expect(batch.ins).toHaveLength(10);
    for (const s of sources) {
      const state = await env.executor.reader.readHtlc(s.params);
      expect(state.secret).toBe(s.secret);
      expect(state.locks.map((l) => l.spend?.kind)).toEqual(["redeem"]);
    }
    const one = await redeemAndConfirm([await spendAction(env, "redeem", single.params, single.secret)]);
    console.log(
      `bitcoin redeem sizes: 10 HTLCs in one tx = ${batch.virtualSize()} vB; one HTLC = ${one.virtualSize()} vB`,
    );
    expect(batch.virtualSize()).toBeLessThan(10 * one.virtualSize());

    const total = sources.reduce((s, x) => s + x.params.amount, 0n) + single.params.amount;
    const received = batch.outs[0]!.value + one.outs[0]!.value;
    expect(await env.executor.balance("bitcoin_regtest:btc")).toBe(balanceBefore + received);
    expect(received).toBeLessThan(total);
  });

  it("reads every HTLC of a redeem batch at once: a batch of eight waits no more round trips than one", async () => {
    const sources = Array.from({ length: 9 }, (_, i) => sourceHtlc(30_000n + BigInt(i) * 1_000n));
    await userFunds(
      env,
      sources.map((s) => ({ script: s.htlc.outputScript, value: s.params.amount })),
    );
    await env.mine(1);
    // Every request held 50 ms: reads made one after another show up as a chain of round trips.
    const { proxy, backend, executor: slow } = await delayedBackend(env, 50);
    try {
      const actions = await Promise.all(sources.map((s) => spendAction(env, "redeem", s.params, s.secret)));
      // The index has walked its look-back and follows every address, as a running solver's does.
      slow.reader.expectReads(sources.map((s) => s.params));
      await backend.warmUp();
      const roundTrips = async (batch: ActionRequest[]) => {
        proxy.resetCounts();
        const signed = await slow.build(batch);
        expect(Transaction.fromHex(signed.raw).ins).toHaveLength(batch.length);
        return roundTripsInARow(proxy.timeline());
      };
      const one = await roundTrips(actions.slice(0, 1));
      const eight = await roundTrips(actions.slice(1));
      expect(eight.count, JSON.stringify(eight.chain)).toBeLessThanOrEqual(one.count);
    } finally {
      await proxy.stop();
    }
  });

  it("refuse a redeem whose secret does not match, or for an HTLC the solver does not redeem", async () => {
    const source = sourceHtlc(30_000n);
    await expect(env.executor.build([action("redeem", source.params, "00".repeat(32))])).rejects.toThrow(
      /does not hash to its secret hash/,
    );
    const notOurs = htlcParams(env.user.key, BitcoinKey.random(), source.params.secretHash, 30_000n);
    await expect(env.executor.build([action("redeem", notOurs, source.secret)])).rejects.toThrow(
      /redeemer key/,
    );
    await expect(env.executor.build([action("redeem", source.params, source.secret)])).rejects.toThrow(
      /names no HTLC output to spend/,
    );
    await expect(
      env.executor.build([
        { ...action("redeem", source.params, source.secret), locks: ["ab".repeat(32) + ":0"] },
      ]),
    ).rejects.toThrow(/no unspent funding output/);
  });
});

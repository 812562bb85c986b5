import { networks } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoindBackend } from "../../../../src/chains/bitcoin/bitcoind-backend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { lockDepth } from "../../../../src/chains/htlc-locks.js";
import { BitcoinReader } from "../../../../src/chains/bitcoin/reader.js";
import { roundTripsInARow } from "../../../support/round-trips.js";
import {
  CHAIN,
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

describe("Bitcoin indexer on a live node", () => {
  it("backfills an address added after its funding confirmed", async () => {
    const { secretHash } = newSecret();
    const params = htlcParams(env.user.key, env.solverKey, secretHash, 45_000n);
    const fundingTxid = await userFunds(env, [
      { script: env.executor.reader.htlcOf(params).outputScript, value: 45_000n },
    ]);
    const fundedAt = await env.mine(1);
    await env.mine(5);

    // A reader over a fresh backend, created after the fact: it must search back for the funding.
    const backend = new BitcoindBackend({ rpc: env.rpc, network: networks.regtest, lookbackBlocks: 20 });
    const reader = new BitcoinReader({ chain: CHAIN, network: "regtest", backend, feeRateCeilingSatVb: 50 });
    const activity = await backend.addressActivity(reader.computeSwapId(params));
    expect(activity.outputs).toEqual([
      { txid: fundingTxid, vout: 0, value: 45_000n, height: fundedAt, spentBy: null },
    ]);
    const [lock] = (await reader.readHtlc(params)).locks;
    expect(lock?.height).toBe(BigInt(fundedAt));
    expect(lockDepth(lock!, BigInt(await env.tip()))).toBe(6);
  });

  it("rolls back a funding whose block is reorganised away and sees it confirm again", async () => {
    const { secretHash } = newSecret();
    const params = htlcParams(env.user.key, env.solverKey, secretHash, 33_000n);
    const reader = env.executor.reader;
    await userFunds(env, [{ script: reader.htlcOf(params).outputScript, value: 33_000n }]);
    const fundedAt = await env.mine(1);
    await env.mine(1);
    const [mined] = (await reader.readHtlc(params)).locks;
    expect(mined?.height).toBe(BigInt(fundedAt));
    expect(lockDepth(mined!, BigInt(await env.tip()))).toBe(2);

    // Reorg: disconnect the funding block (its transactions return to the mempool).
    await env.rpc.invalidateBlock(await env.rpc.getBlockHash(fundedAt));
    const unconfirmed = await reader.readHtlc(params);
    expect(unconfirmed.locks).toMatchObject([{ value: 33_000n, height: null, refundableAtHeight: null }]);

    // A longer branch mines it again, to another address: re-mining the very same block in the same
    // second would rebuild a block the node already marked invalid.
    await env.rpc.generateToAddress(3, BitcoinKey.random().walletPayment(networks.regtest).address);
    const [again] = (await reader.readHtlc(params)).locks;
    expect(again?.height).toBe(BigInt(fundedAt));
    expect(lockDepth(again!, BigInt(await env.tip()))).toBe(3);
    expect(again?.value).toBe(33_000n);
  });

  it("lists the HTLC addresses each new block paid or redeemed from, and no others", async () => {
    const reader = env.executor.reader;
    const paidOne = newSecret();
    const paidTwo = newSecret();
    const one = htlcParams(env.user.key, env.solverKey, paidOne.secretHash, 21_000n, 144n);
    const two = htlcParams(env.user.key, env.solverKey, paidTwo.secretHash, 22_000n, 144n);
    const idle = htlcParams(env.user.key, env.solverKey, newSecret().secretHash, 23_000n, 144n);
    const [addressOne, addressTwo] = [reader.computeSwapId(one), reader.computeSwapId(two)];
    // The solver reads an order's HTLCs before any block could concern them: that is what watches them.
    for (const params of [one, two, idle]) expect((await reader.readHtlc(params)).locks).toEqual([]);

    await userFunds(env, [{ script: reader.htlcOf(one).outputScript, value: 21_000n }]);
    const firstPaid = await env.mine(1);
    await userFunds(env, [{ script: reader.htlcOf(two).outputScript, value: 22_000n }]);
    const secondPaid = await env.mine(1);
    const quiet = await env.mine(1);
    expect(await reader.changedSwapIds(BigInt(firstPaid), BigInt(firstPaid))).toEqual([addressOne]);
    expect(await reader.changedSwapIds(BigInt(secondPaid), BigInt(secondPaid))).toEqual([addressTwo]);
    expect(await reader.changedSwapIds(BigInt(quiet), BigInt(quiet))).toEqual([]);
    expect((await reader.changedSwapIds(BigInt(firstPaid), BigInt(quiet)))?.sort()).toEqual(
      [addressOne, addressTwo].sort(),
    );

    // The solver's redeem of the first reveals its secret in the block that spends it.
    const redeem = await env.executor.build([await spendAction(env, "redeem", one, paidOne.secret)]);
    env.journal.record(redeem);
    await env.executor.broadcast(redeem);
    const redeemed = await env.mine(1);
    expect(await reader.changedSwapIds(BigInt(redeemed), BigInt(redeemed))).toEqual([addressOne]);
    // A block the node does not have yet cannot be told about.
    expect(await reader.changedSwapIds(BigInt(redeemed + 1), BigInt(redeemed + 1))).toBeNull();
  });

  it("brings itself up to date in two round trips in a row when no block came: the tip, then the mempool", async () => {
    const { proxy, backend } = await delayedBackend(env, 50);
    try {
      await backend.warmUp();
      proxy.resetCounts();
      await backend.indexer.sync();
      const trips = roundTripsInARow(proxy.timeline());
      // The followed top's hash is asked beside the tip.
      expect(trips.count, JSON.stringify(trips.chain)).toBe(2);
    } finally {
      await proxy.stop();
    }
  });
});

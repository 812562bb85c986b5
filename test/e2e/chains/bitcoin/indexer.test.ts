import { networks } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoindBackend } from "../../../../src/chains/bitcoin/bitcoind-backend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { lockDepth } from "../../../../src/chains/htlc-locks.js";
import { BitcoinReader } from "../../../../src/chains/bitcoin/reader.js";
import { CHAIN, htlcParams, newSecret, startBitcoinEnv, userFunds, type BitcoinEnv } from "./support.js";

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
});

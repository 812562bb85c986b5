import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BroadcastRejectedError } from "../../../../src/chains/bitcoin/backend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { buildRefundTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { action, htlcParams, newSecret, spendAction, startBitcoinEnv, type BitcoinEnv } from "./support.js";

let env: BitcoinEnv;

beforeAll(async () => {
  env = await startBitcoinEnv();
});

afterAll(async () => {
  await env?.stop();
});

describe("Bitcoin refund of an expired fill", () => {
  it("is rejected before the CSV lock and accepted once it has passed", async () => {
    const timelock = 5n;
    const { secretHash } = newSecret();
    const params = htlcParams(env.solverKey, BitcoinKey.random(), secretHash, 60_000n, timelock);
    const fill = await env.executor.build([action("fill", params)]);
    await env.executor.broadcast(fill);
    const fundedAt = await env.mine(1);
    const state = await env.executor.reader.readHtlc(params);
    const lock = state.locks[0]!;
    expect(lock.refundableAtHeight).toBe(BigInt(fundedAt) + timelock);

    // The next block would be fundedAt + 4: one short of the lock. The executor will not build it...
    await env.mine(3);
    await expect(env.executor.build([await spendAction(env, "refund", params)])).rejects.toThrow(
      /no unspent funding output to refund/,
    );
    // ...and the node would reject it.
    const [txid, vout] = lock.id.split(":");
    const htlc = env.executor.reader.htlcOf(params);
    const early = buildRefundTx(
      [{ htlc, txid: txid!, vout: Number(vout), value: lock.value }],
      env.solverKey,
      env.executor.wallet.outputScript,
      2n,
    );
    await expect(env.executor.broadcast({ raw: early.tx.toHex(), txHash: early.tx.getId() })).rejects.toThrow(
      BroadcastRejectedError,
    );
    await expect(env.rpc.sendRawTransaction(early.tx.toHex())).rejects.toThrow(/non-BIP68-final/);

    await env.mine(1);
    expect(BigInt((await env.tip()) + 1)).toBe(lock.refundableAtHeight);
    const refund = await env.executor.build([await spendAction(env, "refund", params)]);
    env.journal.record(refund);
    await env.executor.broadcast(refund);
    await env.mine(1);
    expect(await env.executor.txStatus(env.journal.attempts.at(-1)!, [])).toMatchObject({
      state: "confirmed",
    });
    const refunded = await env.executor.reader.readHtlc(params);
    expect(refunded.secret).toBeNull();
    expect(refunded.locks.map((l) => l.spend?.kind)).toEqual(["refund"]);
  });

  it("is refused for an HTLC the solver did not initiate", async () => {
    const { secretHash } = newSecret();
    const params = htlcParams(BitcoinKey.random(), env.solverKey, secretHash, 60_000n);
    await expect(env.executor.build([action("refund", params)])).rejects.toThrow(/initiator key/);
  });
});

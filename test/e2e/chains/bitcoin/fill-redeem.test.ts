import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexToBytes } from "../../../../src/chains/bitcoin/bytes.js";
import { AlreadyFundedError } from "../../../../src/chains/bitcoin/errors.js";
import { buildRedeemTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { lockDepth } from "../../../../src/chains/htlc-locks.js";
import {
  action,
  delayedBackend,
  htlcParams,
  newSecret,
  startBitcoinEnv,
  type BitcoinEnv,
} from "./support.js";
import { bitcoinFeeOf } from "../../../support/memory-journal.js";

let env: BitcoinEnv;

beforeAll(async () => {
  env = await startBitcoinEnv();
});

afterAll(async () => {
  await env?.stop();
});

describe("Bitcoin fill, then redeem by the counterparty", () => {
  it("funds the HTLC from the wallet and the counterparty's redeem reveals the secret", async () => {
    const counterparty = BitcoinKey.random();
    const { secret, secretHash } = newSecret();
    const params = htlcParams(env.solverKey, counterparty, secretHash, 250_000n);
    const reader = env.executor.reader;

    expect(await reader.readHtlc(params)).toEqual({ locks: [], onChain: null, secret: null });

    const fill = await env.executor.build([action("fill", params)]);
    expect(Transaction.fromHex(fill.raw).ins.length).toBeGreaterThan(0);
    env.journal.record(fill, { orderId: action("fill", params).orderId, kind: "fill" });
    await env.executor.broadcast(fill);
    await env.executor.broadcast(fill); // a node that already has it counts as success

    const pending = await reader.readHtlc(params);
    expect(pending.locks).toMatchObject([
      { fundingTx: fill.txHash, value: 250_000n, height: null, refundableAtHeight: null, spend: null },
    ]);
    expect(await env.executor.txStatus(env.journal.attempts[0]!, [])).toEqual({ state: "pending" });

    const minedAt = await env.mine(1);
    await env.mine(2);
    const funded = await reader.readHtlc(params);
    expect(funded.secret).toBeNull();
    expect(funded.locks).toMatchObject([
      {
        fundingTx: fill.txHash,
        value: 250_000n,
        height: BigInt(minedAt),
        refundableAtHeight: BigInt(minedAt) + 12n,
        worthSpending: true,
        spend: null,
      },
    ]);
    expect(lockDepth(funded.locks[0]!, BigInt(await env.tip()))).toBe(3);
    expect(await env.executor.txStatus(env.journal.attempts[0]!, [])).toEqual({
      state: "confirmed",
      blockHeight: BigInt(minedAt),
      confirmations: 3,
      feePaid: bitcoinFeeOf(fill),
    });
    env.journal.settle(fill.txHash);

    // Filling the same HTLC again is refused: the chain shows an output of the order's journaled fill.
    await expect(env.executor.build([action("fill", params)])).rejects.toThrow(AlreadyFundedError);

    // The counterparty redeems with its own key.
    const htlc = reader.htlcOf(params);
    const fillTx = Transaction.fromHex(fill.raw);
    const vout = fillTx.outs.findIndex((o) => Buffer.from(o.script).equals(Buffer.from(htlc.outputScript)));
    const redeem = buildRedeemTx(
      [{ htlc, txid: fill.txHash, vout, value: 250_000n, secret: hexToBytes(secret) }],
      counterparty,
      counterparty.walletPayment(htlc.network).output,
      2n,
    );
    await env.rpc.sendRawTransaction(redeem.tx.toHex());
    const seenInMempool = await reader.readHtlc(params);
    expect(seenInMempool.secret).toBe(secret);
    expect(seenInMempool.locks[0]?.spend).toEqual({ kind: "redeem", txid: redeem.tx.getId(), height: null });
    const redeemedAt = await env.mine(1);
    const redeemed = await reader.readHtlc(params);
    expect(redeemed.secret).toBe(secret);
    expect(redeemed.locks[0]?.spend).toEqual({
      kind: "redeem",
      txid: redeem.tx.getId(),
      height: BigInt(redeemedAt),
    });
  });

  it("rejects a redeem signed by the wrong key on chain", async () => {
    const counterparty = BitcoinKey.random();
    const { secret, secretHash } = newSecret();
    const params = htlcParams(env.solverKey, counterparty, secretHash, 100_000n);
    const fill = await env.executor.build([action("fill", params)]);
    await env.executor.broadcast(fill);
    await env.mine(1);
    const htlc = env.executor.reader.htlcOf(params);
    const vout = Transaction.fromHex(fill.raw).outs.findIndex((o) => o.value === 100_000n);
    const forged = buildRedeemTx(
      [{ htlc, txid: fill.txHash, vout, value: 100_000n, secret: hexToBytes(secret) }],
      BitcoinKey.random(),
      counterparty.walletPayment(htlc.network).output,
      2n,
    );
    await expect(env.rpc.sendRawTransaction(forged.tx.toHex())).rejects.toThrow(/Invalid Schnorr signature/);
  });

  it("builds an order's first fill without waiting on the index, and a retry only after looking", async () => {
    const { proxy, executor } = await delayedBackend(env, 0);
    try {
      const params = htlcParams(env.solverKey, BitcoinKey.random(), newSecret().secretHash, 40_000n);
      const fill = action("fill", params);
      proxy.resetCounts();
      const first = await executor.build([fill]);
      // No fill of the order was ever journaled: nothing at the address could be ours.
      expect(proxy.counts().getrawmempool).toBeUndefined();
      env.journal.record(first, { orderId: fill.orderId, kind: "fill" });
      await executor.broadcast(first);
      // Once one is, the address is read first, and the fill waiting in the mempool is found.
      proxy.resetCounts();
      await expect(executor.build([fill])).rejects.toThrow(AlreadyFundedError);
      expect(proxy.counts().getrawmempool?.calls).toBeGreaterThan(0);
    } finally {
      await proxy.stop();
    }
  });
});

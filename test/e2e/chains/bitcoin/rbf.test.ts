import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import {
  action,
  htlcParams,
  newSecret,
  spendAction,
  startBitcoinEnv,
  userFunds,
  type BitcoinEnv,
} from "./support.js";
import { bitcoinFeeOf } from "../../../support/memory-journal.js";
import { Transaction } from "bitcoinjs-lib";
import { inputOutpoints } from "../../../../src/chains/bitcoin/journal-outputs.js";

let env: BitcoinEnv;

beforeAll(async () => {
  // The local node estimates 2 sat/vB (a real regtest bitcoind has no estimate: the floor, 2).
  env = await startBitcoinEnv({ floor: 2, ceiling: 4 });
});

afterAll(async () => {
  await env?.stop();
});

describe("Bitcoin fee bumps (BIP-125)", () => {
  it("replace a pending fill until the ceiling, and the last replacement confirms", async () => {
    const { secretHash } = newSecret();
    const fillAction = action("fill", htlcParams(env.solverKey, BitcoinKey.random(), secretHash, 120_000n));
    const original = await env.executor.build([fillAction]);
    const originalAttempt = env.journal.record(original);
    await env.executor.broadcast(original);
    expect(original.terms).toMatchObject({ feeRateSatVb: 2n });

    const first = await env.executor.bump(originalAttempt, [fillAction]);
    expect(first).not.toBeNull();
    expect(first!.terms).toMatchObject({ feeRateSatVb: 3n });
    expect(inputOutpoints(Transaction.fromHex(first!.raw))).toEqual(
      inputOutpoints(Transaction.fromHex(original.raw)),
    );
    expect(bitcoinFeeOf(first!)).toBeGreaterThan(bitcoinFeeOf(original));
    const firstAttempt = env.journal.record(first!);
    await env.executor.broadcast(first!);
    let mempool = await env.rpc.getRawMempool();
    expect(mempool).toContain(first!.txHash);
    expect(mempool).not.toContain(original.txHash);

    const second = await env.executor.bump(firstAttempt, [fillAction]);
    expect(second!.terms).toMatchObject({ feeRateSatVb: 4n });
    const secondAttempt = env.journal.record(second!);
    await env.executor.broadcast(second!);
    expect(await env.executor.bump(secondAttempt, [fillAction])).toBeNull();

    mempool = await env.rpc.getRawMempool();
    expect(mempool).toContain(second!.txHash);
    expect(mempool).not.toContain(first!.txHash);
    await env.mine(1);
    expect(await env.executor.txStatus(secondAttempt, [])).toMatchObject({
      state: "confirmed",
      confirmations: 1,
    });
    // Without its actions the executor cannot tell where the inputs went: merely unknown to the node.
    expect(await env.executor.txStatus(originalAttempt, [])).toEqual({ state: "unknown" });
    // With them, it finds its wallet inputs spent by the mined replacement: it can never be mined.
    expect(await env.executor.txStatus(originalAttempt, [fillAction])).toEqual({
      state: "dead",
      reason: expect.stringContaining(`is spent by ${second!.txHash} (mined at`),
    });
    const filled = await env.executor.reader.readHtlc(fillAction.params);
    expect(filled.locks.map((l) => [l.fundingTx, l.value])).toEqual([[second!.txHash, 120_000n]]);
  });

  it("replace a pending redeem with a smaller output paying the higher fee", async () => {
    const { secret, secretHash } = newSecret();
    const params = htlcParams(env.user.key, env.solverKey, secretHash, 80_000n, 144n);
    await userFunds(env, [{ script: env.executor.reader.htlcOf(params).outputScript, value: 80_000n }]);
    await env.mine(1);
    const redeemAction = await spendAction(env, "redeem", params, secret);
    const original = await env.executor.build([redeemAction]);
    const attempt = env.journal.record(original);
    await env.executor.broadcast(original);
    const bumped = await env.executor.bump(attempt, [redeemAction]);
    expect(bumped).not.toBeNull();
    env.journal.record(bumped!);
    await env.executor.broadcast(bumped!);
    expect(await env.rpc.getRawMempool()).not.toContain(original.txHash);
    await env.mine(1);
    const redeemed = await env.executor.reader.readHtlc(params);
    expect(redeemed.secret).toBe(secret);
    expect(redeemed.locks.map((l) => l.spend?.kind)).toEqual(["redeem"]);
  });

  it("cancel a pending fill: its wallet inputs come back to the wallet and the HTLC is never funded", async () => {
    const { secretHash } = newSecret();
    const fillAction = action("fill", htlcParams(env.solverKey, BitcoinKey.random(), secretHash, 90_000n));
    const fill = await env.executor.build([fillAction]);
    const fillAttempt = env.journal.record(fill);
    await env.executor.broadcast(fill);

    const cancel = await env.executor.cancel(fillAttempt);
    if (cancel === null) throw new Error("cancel refused below twice the ceiling");
    const cancelTx = Transaction.fromHex(cancel.raw);
    expect(inputOutpoints(cancelTx)).toEqual(inputOutpoints(Transaction.fromHex(fill.raw)));
    expect(cancelTx.outs).toHaveLength(1);
    expect(Buffer.from(cancelTx.outs[0]!.script)).toEqual(Buffer.from(env.executor.wallet.outputScript));
    expect(bitcoinFeeOf(cancel)).toBeGreaterThan(bitcoinFeeOf(fill));
    const cancelAttempt = env.journal.record(cancel);
    await env.executor.broadcast(cancel);
    const mempool = await env.rpc.getRawMempool();
    expect(mempool).toContain(cancel.txHash);
    expect(mempool).not.toContain(fill.txHash);

    await env.mine(1);
    expect(await env.executor.txStatus(cancelAttempt, [])).toMatchObject({ state: "confirmed" });
    expect(await env.executor.txStatus(fillAttempt, [fillAction])).toMatchObject({ state: "dead" });
    expect((await env.executor.reader.readHtlc(fillAction.params)).locks).toEqual([]);
    // What came back is what went in, less the cancel's fee.
    const inputs = (cancel.terms.family === "bitcoin" ? cancel.terms.inputValues : []).reduce(
      (a, b) => a + b,
      0n,
    );
    expect(cancelTx.outs[0]!.value).toBe(inputs - bitcoinFeeOf(cancel));
  });
});

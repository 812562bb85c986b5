import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToTxid } from "../../../../src/chains/bitcoin/bytes.js";
import { BitcoinKey } from "../../../../src/chains/bitcoin/keys.js";
import { action, htlcParams, newSecret, startBitcoinEnv, type BitcoinEnv } from "./support.js";

let env: BitcoinEnv;

beforeAll(async () => {
  env = await startBitcoinEnv();
});

afterAll(async () => {
  await env?.stop();
});

const outpoints = (raw: string) =>
  Transaction.fromHex(raw).ins.map((i) => `${hashToTxid(i.hash)}:${i.index}`);

describe("Bitcoin wallet after a crash", () => {
  it("does not reuse outputs of a signed, unbroadcast fill and spends its change instead", async () => {
    const before = await env.executor.wallet.spendable();
    expect(before).toHaveLength(1); // the one mature coinbase
    const coinbase = before[0]!;

    const { secretHash } = newSecret();
    const fillA = await env.executor.build([
      action("fill", htlcParams(env.solverKey, BitcoinKey.random(), secretHash, 1_000_000n)),
    ]);
    env.journal.record(fillA); // journaled, then the process "crashes" before broadcasting

    const restarted = env.restart();
    const after = await restarted.wallet.spendable();
    expect(after.map((u) => `${u.txid}:${u.vout}`)).not.toContain(`${coinbase.txid}:${coinbase.vout}`);
    const change = Transaction.fromHex(fillA.raw).outs.at(-1)!.value;
    expect(after).toEqual([{ txid: fillA.txHash, vout: 1, value: change, confirmed: false }]);
    expect(await restarted.balance("bitcoin_regtest:btc")).toBe(change);

    const other = newSecret();
    const fillB = await restarted.build([
      action("fill", htlcParams(env.solverKey, BitcoinKey.random(), other.secretHash, 500_000n)),
    ]);
    expect(outpoints(fillB.raw)).toEqual([`${fillA.txHash}:1`]);
    env.journal.record(fillB);

    // Recovery re-broadcasts the journaled fill; the child that spends its change then relays too.
    await restarted.broadcast(fillA);
    await restarted.broadcast(fillB);
    expect(await env.rpc.getRawMempool()).toEqual(expect.arrayContaining([fillA.txHash, fillB.txHash]));
    // Parent and child in separate blocks: the local node cannot yet connect a block holding both.
    await env.mineOnly([fillA.txHash]);
    await env.mine(1);
    for (const attempt of env.journal.attempts) {
      expect(await restarted.txStatus(attempt, [])).toMatchObject({ state: "confirmed" });
    }
    for (const attempt of [...env.journal.attempts]) env.journal.settle(attempt.txHash);
    const settled = await restarted.wallet.spendable();
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ txid: fillB.txHash, confirmed: true });
  });
});

/**
 * Replacing a fill that has descendants in the mempool: a payment of the solver's own chained on its
 * change, and the user's redeem of its HTLC output, which only the node knows of. BIP-125 asks the
 * replacement for every fee it evicts plus 1 sat/vB of its own size; the node refuses anything less.
 * Each side's balance is read from the chain once the replacement is mined.
 */
import { Writable } from "node:stream";
import { Transaction } from "bitcoinjs-lib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRequest, SignedTx, TxAttemptRef } from "../../../../src/chains/chain.js";
import { hexToBytes, txidToHash } from "../../../../src/chains/bitcoin/bytes.js";
import { BitcoinExecutor } from "../../../../src/chains/bitcoin/executor.js";
import { buildRedeemTx } from "../../../../src/chains/bitcoin/htlc-spend.js";
import { redeemWitness, signLeaf } from "../../../../src/chains/bitcoin/htlc-witness.js";
import { inputOutpoints } from "../../../../src/chains/bitcoin/journal-outputs.js";
import { RBF_SEQUENCE } from "../../../../src/chains/bitcoin/wallet.js";
import { bitcoinFeeOf } from "../../../support/memory-journal.js";
import { action, htlcParams, newSecret, startBitcoinEnv, type BitcoinEnv } from "./support.js";

let env: BitcoinEnv;

beforeAll(async () => {
  // The local node estimates 2 sat/vB (a real regtest bitcoind has no estimate: the floor, 2).
  env = await startBitcoinEnv({ floor: 2, ceiling: 50 });
});

afterAll(async () => {
  await env?.stop();
});

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
const onChain = async (address: string) =>
  sum((await env.backend.confirmedUnspent(address)).map((u) => u.value));

interface Family {
  fillAction: ActionRequest;
  secret: string;
  fill: SignedTx;
  fillAttempt: TxAttemptRef;
  /** The solver's next fill, paid from the first one's unconfirmed change. */
  child: SignedTx;
  /** The user's redeem of the first fill's HTLC output. */
  redeem: Transaction;
  redeemFee: bigint;
}

/** A fill of 200,000 sat to the user, the solver's own child on its change and the user's redeem of it. */
async function fillWithDescendants(redeemOutputs = 1): Promise<Family> {
  const { secret, secretHash } = newSecret();
  const fillAction = action("fill", htlcParams(env.solverKey, env.user.key, secretHash, 200_000n));
  const fill = await env.executor.build([fillAction]);
  const fillAttempt = env.journal.record(fill, { orderId: fillAction.orderId, kind: "fill" });
  await env.executor.broadcast(fill);

  const next = action("fill", htlcParams(env.solverKey, env.user.key, newSecret().secretHash, 150_000n));
  const child = await env.executor.build([next]);
  expect(inputOutpoints(Transaction.fromHex(child.raw))).toEqual([`${fill.txHash}:1`]);
  env.journal.record(child, { orderId: next.orderId, kind: "fill" });
  await env.executor.broadcast(child);

  const htlc = env.executor.reader.htlcOf(fillAction.params);
  const redeem = userRedeem(fill.txHash, htlc, hexToBytes(secret), redeemOutputs);
  await env.rpc.sendRawTransaction(redeem.tx.toHex());
  return { fillAction, secret, fill, fillAttempt, child, redeem: redeem.tx, redeemFee: redeem.fee };
}

/**
 * The user's redeem of the fill's HTLC output (vout 0) with the secret, at 2 sat/vB; with many outputs
 * it is the large, low-rate descendant a user could pin the fill with.
 */
function userRedeem(
  fillTxid: string,
  htlc: ReturnType<BitcoinExecutor["reader"]["htlcOf"]>,
  secret: Uint8Array,
  outputs: number,
): { tx: Transaction; fee: bigint } {
  const userScript = env.user.wallet.outputScript;
  if (outputs === 1) {
    const { tx, fee } = buildRedeemTx(
      [{ htlc, txid: fillTxid, vout: 0, value: 200_000n, secret }],
      env.user.key,
      userScript,
      2n,
    );
    return { tx, fee };
  }
  const tx = new Transaction();
  tx.version = 2;
  tx.addInput(txidToHash(fillTxid), 0, RBF_SEQUENCE);
  for (let i = 0; i < outputs; i++) tx.addOutput(userScript, 1_000n);
  const prevouts = [{ script: htlc.outputScript, value: 200_000n }];
  tx.setWitness(0, redeemWitness(htlc, signLeaf(env.user.key, tx, 0, prevouts, htlc, "redeem"), secret));
  const fee = 200_000n - BigInt(outputs) * 1_000n;
  // Low rate, large size: the fee is high only because the transaction is.
  expect(fee / BigInt(tx.virtualSize())).toBeLessThan(10n);
  return { tx, fee };
}

function settleAll(): void {
  for (const attempt of [...env.journal.attempts]) env.journal.settle(attempt.txHash);
}

describe("replacing a fill that has descendants in the mempool", () => {
  it("a bump pays for the solver's own child and the user's redeem, and the node takes it", async () => {
    const family = await fillWithDescendants();
    const entry = await env.rpc.getMempoolEntry(family.fill.txHash);
    expect(entry.descendantcount).toBe(3);
    const evicted = bitcoinFeeOf(family.fill) + bitcoinFeeOf(family.child) + family.redeemFee;
    expect(entry.fees.descendantSats).toBe(evicted);

    const bumped = await env.executor.bump(family.fillAttempt, [family.fillAction]);
    if (bumped === null) throw new Error("no bump signed");
    const vsize = BigInt(Transaction.fromHex(bumped.raw).virtualSize());
    expect(bitcoinFeeOf(bumped)).toBeGreaterThanOrEqual(evicted + vsize);
    env.journal.record(bumped, { orderId: family.fillAction.orderId, kind: "fill" });
    await env.executor.broadcast(bumped);
    const mempool = await env.rpc.getRawMempool();
    expect(mempool).toContain(bumped.txHash);
    for (const gone of [family.fill.txHash, family.child.txHash, family.redeem.getId()]) {
      expect(mempool).not.toContain(gone);
    }

    const solverBefore = await onChain(env.executor.wallet.address);
    const userBefore = await onChain(env.user.wallet.address);
    await env.mine(1);
    settleAll();
    // The solver paid the fill and the bump's fee; the HTLC holds the fill for the user to redeem again.
    expect(await onChain(env.executor.wallet.address)).toBe(solverBefore - 200_000n - bitcoinFeeOf(bumped));
    const funded = await env.executor.reader.readHtlc(family.fillAction.params);
    expect(funded.locks.map((l) => [l.fundingTx, l.value, l.spend])).toEqual([
      [bumped.txHash, 200_000n, null],
    ]);
    const htlc = env.executor.reader.htlcOf(family.fillAction.params);
    const again = userRedeem(bumped.txHash, htlc, hexToBytes(family.secret), 1);
    await env.rpc.sendRawTransaction(again.tx.toHex());
    await env.mine(1);
    expect(await onChain(env.user.wallet.address)).toBe(userBefore + 200_000n - again.fee);
  });

  it("a cancel pays for both descendants, and nothing reaches the user", async () => {
    const family = await fillWithDescendants();
    const cancel = await env.executor.cancel(family.fillAttempt);
    if (cancel === null) throw new Error("no cancel signed");
    const evicted = bitcoinFeeOf(family.fill) + bitcoinFeeOf(family.child) + family.redeemFee;
    const vsize = BigInt(Transaction.fromHex(cancel.raw).virtualSize());
    expect(bitcoinFeeOf(cancel)).toBeGreaterThanOrEqual(evicted + vsize);
    await env.executor.broadcast(cancel);
    expect(await env.rpc.getRawMempool()).toEqual([cancel.txHash]);

    const solverBefore = await onChain(env.executor.wallet.address);
    const userBefore = await onChain(env.user.wallet.address);
    await env.mine(1);
    settleAll();
    expect(await onChain(env.executor.wallet.address)).toBe(solverBefore - bitcoinFeeOf(cancel));
    expect(await onChain(env.user.wallet.address)).toBe(userBefore);
    expect((await env.executor.reader.readHtlc(family.fillAction.params)).locks).toEqual([]);
  });

  it("a descendant pinning the fill above twice the ceiling: no cancel, the log says why, nothing moves", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const executor = new BitcoinExecutor({
      config: env.config,
      key: env.solverKey,
      backend: env.backend,
      journal: env.journal,
      logger: pino({ level: "warn" }, sink),
    });
    const family = await fillWithDescendants(150);
    const solverBefore = await onChain(env.executor.wallet.address);
    const userBefore = await onChain(env.user.wallet.address);
    expect(await executor.cancel(family.fillAttempt)).toBeNull();
    expect(await executor.bump(family.fillAttempt, [family.fillAction])).toBeNull();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; reason: string });
    expect(logged.map((l) => l.msg)).toEqual([
      "bitcoin: cannot out-pay the fill to cancel it",
      "bitcoin: no replacement possible",
    ]);
    for (const { reason } of logged) {
      expect(reason).toMatch(
        /in-mempool descendant\(s\) pay .* more than the \d+ sat its ceiling of \d+ sat\/vB/,
      );
    }
    expect(logged[0]!.reason).toContain("ceiling of 100 sat/vB");
    const mempool = await env.rpc.getRawMempool();
    for (const kept of [family.fill.txHash, family.child.txHash, family.redeem.getId()]) {
      expect(mempool).toContain(kept);
    }
    // The pin is a redeem: its secret is in the mempool, where the solver's index reads it.
    expect((await env.executor.reader.readHtlc(family.fillAction.params)).secret).toBe(family.secret);
    expect(await onChain(env.executor.wallet.address)).toBe(solverBefore);
    expect(await onChain(env.user.wallet.address)).toBe(userBefore);
  });
});

/**
 * BIP-125 rules 3 and 4 over a family of descendants, as Bitcoin Core 26 applies them: a replacement
 * pays at least the fees of every transaction it evicts (the one it conflicts with and all of that one's
 * in-mempool descendants, children and grandchildren alike), plus the incremental relay fee (1 sat/vB)
 * for its own size. `getmempoolentry` reports the descendants' count, size and fees a replacement must
 * out-pay.
 */
import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { btcToSats } from "htlc-solver/chains/bitcoin/rpc.js";
import type { BitcoinTestNode } from "../../../../../../../test/support/bitcoin-node.js";
import {
  p2wpkhOf,
  rejection,
  signP2wpkh,
  spendTx,
  startFundedNode,
  TestKey,
  txidBytes,
  type Faucet,
  type Utxo,
} from "./helpers.js";

const RBF = 0xfffffffd;

describe("replacing a transaction that has descendants", () => {
  let btc: BitcoinTestNode;
  let faucet: Faucet;
  const sink = p2wpkhOf(new TestKey()).output;

  beforeAll(async () => ({ btc, faucet } = await startFundedNode()));
  afterAll(() => btc.stop());

  /** A signed spend of a P2WPKH output of `key` to `to`, paying `fee`. */
  function spend(utxo: Utxo, key: TestKey, to: Uint8Array, fee: bigint): Transaction {
    const tx = spendTx(utxo, to, fee, RBF);
    signP2wpkh(tx, 0, key, utxo.value);
    return tx;
  }

  it("asks the fees of the original and every descendant, plus 1 sat/vB of its own size", async () => {
    const key = new TestKey();
    const owned = p2wpkhOf(key).output;
    const utxo = await faucet.payConfirmed(owned, 200_000n);
    // The original pays 1,000 sat into two outputs of its own key; two children and a grandchild follow.
    const original = new Transaction();
    original.version = 2;
    original.addInput(txidBytes(utxo.txid), utxo.vout, RBF);
    original.addOutput(owned, 100_000n);
    original.addOutput(owned, 99_000n);
    signP2wpkh(original, 0, key, utxo.value);
    const out = (tx: Transaction, vout: number): Utxo => ({
      txid: tx.getId(),
      vout,
      value: tx.outs[vout]!.value,
      script: owned,
    });
    const child = spend(out(original, 0), key, owned, 700n);
    const sibling = spend(out(original, 1), key, sink, 500n);
    const grandchild = spend(out(child, 0), key, sink, 300n);
    for (const tx of [original, child, sibling, grandchild]) await btc.rpc.sendRawTransaction(tx.toHex());

    const entry = await btc.rpc.getMempoolEntry(original.getId());
    const family = [original, child, sibling, grandchild];
    expect(entry.descendantcount).toBe(4);
    expect(entry.descendantsize).toBe(family.reduce((s, tx) => s + tx.virtualSize(), 0));
    expect(entry.fees.baseSats).toBe(1_000n);
    expect(entry.fees.descendantSats).toBe(2_500n);

    // More than the original alone (and a far higher rate), less than the family it evicts.
    const short = spend(utxo, key, sink, 2_000n);
    expect((await rejection(btc.rpc.sendRawTransaction(short.toHex()))).rpcMessage).toBe(
      `insufficient fee, rejecting replacement ${short.getId()}, less fees than conflicting txs; 0.00002 < 0.000025`,
    );
    // Every evicted fee, but one satoshi short of paying for its own relay.
    const vsize = short.virtualSize();
    const almost = spend(utxo, key, sink, 2_500n + BigInt(vsize) - 1n);
    const relay = (await rejection(btc.rpc.sendRawTransaction(almost.toHex()))).rpcMessage;
    const amounts = relay.match(
      /^insufficient fee, rejecting replacement [0-9a-f]{64}, not enough additional fees to relay; ([0-9.]+) < ([0-9.]+)$/,
    );
    expect(amounts?.slice(1).map((btcText) => btcToSats(btcText))).toEqual([
      BigInt(vsize) - 1n,
      BigInt(vsize),
    ]);

    const enough = spend(utxo, key, sink, 2_500n + BigInt(vsize));
    expect(await btc.rpc.sendRawTransaction(enough.toHex())).toBe(enough.getId());
    const mempool = await btc.rpc.getRawMempool();
    expect(mempool).toContain(enough.getId());
    for (const evicted of family) expect(mempool).not.toContain(evicted.getId());
  });
});

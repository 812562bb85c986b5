import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BitcoinTestNode } from "../../../../../../../test/support/bitcoin-node.js";
import type { Faucet } from "./helpers.js";
import { startFundedNode, rejection, p2wpkhOf, signP2wpkh, spendTx, TestKey } from "./helpers.js";

describe("mempool rules and reorgs", () => {
  let btc: BitcoinTestNode;
  let faucet: Faucet;
  const sink = p2wpkhOf(new TestKey()).output;

  beforeAll(async () => ({ btc, faucet } = await startFundedNode()));
  afterAll(() => btc.stop());

  it("rejects a double spend of a mempool output that does not signal RBF, and a spend of a spent output", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 100_000n);
    const first = spendTx(utxo, sink, 500n);
    signP2wpkh(first, 0, key, utxo.value);
    await btc.rpc.sendRawTransaction(first.toHex());
    const second = spendTx(utxo, p2wpkhOf(new TestKey()).output, 5_000n);
    signP2wpkh(second, 0, key, utxo.value);
    const conflict = await rejection(btc.rpc.sendRawTransaction(second.toHex()));
    expect(conflict).toMatchObject({ code: -26, rpcMessage: "txn-mempool-conflict" });

    await btc.rpc.generateToAddress(1, faucet.burnAddress);
    const spent = await rejection(btc.rpc.sendRawTransaction(second.toHex()));
    expect(spent).toMatchObject({ code: -25, rpcMessage: "bad-txns-inputs-missingorspent" });
    const [check] = await btc.rpc.testMempoolAccept([second.toHex()]);
    expect(check).toMatchObject({ allowed: false, "reject-reason": "missing-inputs" });
    const again = await rejection(btc.rpc.sendRawTransaction(first.toHex()));
    expect(again).toMatchObject({ code: -27 });
  });

  it("rejects outputs worth more than the inputs and fees below the relay minimum", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 10_000n);
    const tooMuch = spendTx(utxo, sink, -1_000n);
    signP2wpkh(tooMuch, 0, key, utxo.value);
    const belowOut = await rejection(btc.rpc.sendRawTransaction(tooMuch.toHex()));
    expect(belowOut).toMatchObject({
      code: -26,
      rpcMessage: "bad-txns-in-belowout, value in (0.0001) < value out (0.00011)",
    });
    const cheap = spendTx(utxo, sink, 50n);
    signP2wpkh(cheap, 0, key, utxo.value);
    const lowFee = await rejection(btc.rpc.sendRawTransaction(cheap.toHex()));
    expect(lowFee.rpcMessage).toBe(`min relay fee not met, 50 < ${cheap.virtualSize()}`);
  });

  it("replaces a signalling transaction with one paying more (BIP-125) and evicts its descendants", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 100_000n);
    const childKey = new TestKey();
    const original = spendTx(utxo, p2wpkhOf(childKey).output, 1_000n, 0xfffffffd);
    signP2wpkh(original, 0, key, utxo.value);
    await btc.rpc.sendRawTransaction(original.toHex());
    const childUtxo = { txid: original.getId(), vout: 0, value: 99_000n, script: p2wpkhOf(childKey).output };
    const child = spendTx(childUtxo, sink, 1_000n);
    signP2wpkh(child, 0, childKey, childUtxo.value);
    await btc.rpc.sendRawTransaction(child.toHex());
    expect((await btc.rpc.getMempoolEntry(original.getId()))["bip125-replaceable"]).toBe(true);

    const tooCheap = spendTx(utxo, sink, 1_500n, 0xfffffffd);
    signP2wpkh(tooCheap, 0, key, utxo.value);
    const cheap = await rejection(btc.rpc.sendRawTransaction(tooCheap.toHex()));
    expect(cheap.rpcMessage).toMatch(
      /^insufficient fee, rejecting replacement [0-9a-f]{64}, less fees than conflicting txs; 0\.000015 < 0\.00002$/,
    );

    const replacement = spendTx(utxo, sink, 3_000n, 0xfffffffd);
    signP2wpkh(replacement, 0, key, utxo.value);
    expect(await btc.rpc.sendRawTransaction(replacement.toHex())).toBe(replacement.getId());
    const mempool = await btc.rpc.getRawMempool();
    expect(mempool).toContain(replacement.getId());
    expect(mempool).not.toContain(original.getId());
    expect(mempool).not.toContain(child.getId());
  });

  it("returns the transactions of an invalidated block to the mempool and mines the new branch", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 100_000n);
    const tx = spendTx(utxo, sink, 1_000n);
    signP2wpkh(tx, 0, key, utxo.value);
    await btc.rpc.sendRawTransaction(tx.toHex());
    const [minedIn] = await btc.rpc.generateToAddress(1, faucet.burnAddress);
    const height = await btc.rpc.getBlockCount();
    expect((await btc.rpc.getRawTransactionVerbose(tx.getId())).blockhash).toBe(minedIn);

    await btc.rpc.invalidateBlock(minedIn ?? "");
    expect(await btc.rpc.getBlockCount()).toBe(height - 1);
    expect(await btc.rpc.getRawMempool()).toContain(tx.getId());
    expect((await btc.rpc.getRawTransactionVerbose(tx.getId())).blockhash).toBeUndefined();
    expect((await btc.rpc.getBlockHeader(minedIn ?? "")).confirmations).toBe(-1);
    expect(await btc.rpc.getTxOut(tx.getId(), 0, false)).toBeNull();
    expect((await btc.rpc.getTxOut(tx.getId(), 0, true))?.confirmations).toBe(0);

    const [replacementBlock] = await btc.rpc.generateToAddress(2, p2wpkhOf(new TestKey()).address);
    expect(await btc.rpc.getBlockCount()).toBe(height + 1);
    expect(replacementBlock).not.toBe(minedIn);
    const confirmed = await btc.rpc.getRawTransactionVerbose(tx.getId());
    expect(confirmed.blockhash).toBe(replacementBlock);
    expect(confirmed.confirmations).toBe(2);
    expect(await btc.rpc.getRawMempool()).not.toContain(tx.getId());
  });
});

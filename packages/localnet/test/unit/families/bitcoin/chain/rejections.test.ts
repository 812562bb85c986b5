import { randomBytes } from "node:crypto";
import { script as bscript, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BitcoinRpcError } from "htlc-solver/chains/bitcoin/rpc.js";
import type { BitcoinTestNode } from "../../../../../../../test/support/bitcoin-node.js";
import type { Faucet } from "./helpers.js";
import {
  startFundedNode,
  leafHash,
  p2trKeyPathOf,
  p2trScriptTree,
  p2wpkhOf,
  signP2wpkh,
  spendTx,
  TestKey,
  txidBytes,
  type Utxo,
} from "./helpers.js";

const OPS = bscript.OPS;
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

async function sendError(btc: BitcoinTestNode, tx: Transaction): Promise<string> {
  try {
    await btc.rpc.sendRawTransaction(tx.toHex());
    return "accepted";
  } catch (error) {
    return (error as BitcoinRpcError).rpcMessage;
  }
}

/** A script-path spend of leaf 0 of a two-leaf tree, witness built by `stack` (before script and control). */
interface LeafSpend {
  utxo: Utxo;
  leaf: Uint8Array;
  control: Uint8Array;
}

describe("rejections match bitcoind's reasons", () => {
  let btc: BitcoinTestNode;
  let faucet: Faucet;
  const sink = p2wpkhOf(new TestKey()).output;
  const filler = bscript.compile([OPS.OP_RETURN]);

  beforeAll(async () => ({ btc, faucet } = await startFundedNode()));
  afterAll(() => btc.stop());

  async function fundLeaf(leaf: Uint8Array): Promise<LeafSpend> {
    const tree = p2trScriptTree(new TestKey(), [leaf, filler]);
    const utxo = await faucet.payConfirmed(tree.output, 60_000n);
    return { utxo, leaf, control: tree.controlBlock(0) };
  }

  function leafSig(tx: Transaction, spend: LeafSpend, key: TestKey, hashType = 0): Uint8Array {
    const hash = tx.hashForWitnessV1(
      0,
      [spend.utxo.script],
      [spend.utxo.value],
      hashType,
      leafHash(spend.leaf),
    );
    return key.signSchnorr(hash, hashType);
  }

  it("ECDSA: high S is non-standard, a missing witness is a program mismatch", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 50_000n);
    const tx = spendTx(utxo, sink, 500n);
    signP2wpkh(tx, 0, key, utxo.value);
    const [der = new Uint8Array(0)] = tx.ins[0]?.witness ?? [];
    const decoded = bscript.signature.decode(der);
    const s = BigInt("0x" + Buffer.from(decoded.signature.subarray(32)).toString("hex"));
    const highS = Uint8Array.from([
      ...decoded.signature.subarray(0, 32),
      ...Buffer.from((ORDER - s).toString(16).padStart(64, "0"), "hex"),
    ]);
    const highTx = spendTx(utxo, sink, 500n);
    highTx.setWitness(0, [derEncode(highS, 0x01), key.publicKey]);
    expect(await sendError(btc, highTx)).toBe(
      "non-mandatory-script-verify-flag (Non-canonical signature: S value is unnecessarily high)",
    );
    const empty = spendTx(utxo, sink, 500n);
    expect(await sendError(btc, empty)).toBe(
      "mandatory-script-verify-flag-failed (Witness program hash mismatch)",
    );
    expect(ecc.isPrivate(key.privateKey)).toBe(true);
  });

  it("Schnorr: wrong sizes and hash types", async () => {
    const key = new TestKey();
    const signer = key.tweakedForKeyPath();
    const utxo = await faucet.payConfirmed(p2trKeyPathOf(key).output, 50_000n);
    const withSig = (sig: Uint8Array): Transaction => {
      const tx = spendTx(utxo, sink, 500n);
      tx.setWitness(0, [sig]);
      return tx;
    };
    const digest = (hashType: number): Uint8Array => {
      const tx = spendTx(utxo, sink, 500n);
      return tx.hashForWitnessV1(0, [utxo.script], [utxo.value], hashType);
    };
    const sig = signer.signSchnorr(digest(0));
    expect(await sendError(btc, withSig(sig.subarray(0, 63)))).toBe(
      "mandatory-script-verify-flag-failed (Invalid Schnorr signature size)",
    );
    expect(await sendError(btc, withSig(Uint8Array.from([...sig, 0x00])))).toBe(
      "mandatory-script-verify-flag-failed (Invalid Schnorr signature hash type)",
    );
    expect(await sendError(btc, withSig(Uint8Array.from([...sig, 0x04])))).toBe(
      "mandatory-script-verify-flag-failed (Invalid Schnorr signature hash type)",
    );
    // SIGHASH_SINGLE on an input without a matching output.
    const two = new Transaction();
    two.version = 2;
    const other = await faucet.payConfirmed(p2trKeyPathOf(key).output, 40_000n);
    two.addInput(txidBytes(other.txid), other.vout);
    two.addInput(txidBytes(utxo.txid), utxo.vout);
    two.addOutput(sink, 80_000n);
    const prev = [other.script, utxo.script];
    const values = [other.value, utxo.value];
    two.setWitness(0, [signer.signSchnorr(two.hashForWitnessV1(0, prev, values, 0))]);
    two.setWitness(1, [Uint8Array.from([...signer.signSchnorr(new Uint8Array(32)), 0x03])]);
    expect(await sendError(btc, two)).toBe(
      "mandatory-script-verify-flag-failed (Invalid Schnorr signature hash type)",
    );
  });

  it("tapscript: minimal pushes, MINIMALIF, OP_SUCCESS, clean stack, key types", async () => {
    const key = new TestKey();
    const nonMinimal = await fundLeaf(Uint8Array.from([OPS.OP_PUSHDATA1, 32, ...key.xOnly, OPS.OP_CHECKSIG]));
    const tx1 = spendTx(nonMinimal.utxo, sink, 500n);
    tx1.setWitness(0, [leafSig(tx1, nonMinimal, key), nonMinimal.leaf, nonMinimal.control]);
    expect(await sendError(btc, tx1)).toBe(
      "non-mandatory-script-verify-flag (Data push larger than necessary)",
    );

    const ifLeaf = await fundLeaf(bscript.compile([OPS.OP_IF, OPS.OP_1, OPS.OP_ENDIF]));
    const tx2 = spendTx(ifLeaf.utxo, sink, 500n);
    tx2.setWitness(0, [Uint8Array.of(2), ifLeaf.leaf, ifLeaf.control]);
    expect(await sendError(btc, tx2)).toBe(
      "mandatory-script-verify-flag-failed (OP_IF/NOTIF argument must be minimal in tapscript)",
    );

    const success = await fundLeaf(Uint8Array.of(0x50));
    const tx3 = spendTx(success.utxo, sink, 500n);
    tx3.setWitness(0, [success.leaf, success.control]);
    expect(await sendError(btc, tx3)).toBe(
      "non-mandatory-script-verify-flag (OP_SUCCESSx reserved for soft-fork upgrades)",
    );

    const twoItems = await fundLeaf(bscript.compile([OPS.OP_1, OPS.OP_1]));
    const tx4 = spendTx(twoItems.utxo, sink, 500n);
    tx4.setWitness(0, [twoItems.leaf, twoItems.control]);
    expect(await sendError(btc, tx4)).toBe(
      "mandatory-script-verify-flag-failed (Stack size must be exactly one after execution)",
    );

    const oddKey = await fundLeaf(bscript.compile([key.publicKey, OPS.OP_CHECKSIG]));
    const tx5 = spendTx(oddKey.utxo, sink, 500n);
    tx5.setWitness(0, [leafSig(tx5, oddKey, key), oddKey.leaf, oddKey.control]);
    expect(await sendError(btc, tx5)).toBe(
      "non-mandatory-script-verify-flag (Public key version reserved for soft-fork upgrades)",
    );

    const big = await fundLeaf(bscript.compile([OPS.OP_SIZE, bscript.number.encode(81), OPS.OP_EQUALVERIFY]));
    const tx6 = spendTx(big.utxo, sink, 500n);
    tx6.setWitness(0, [randomBytes(81), big.leaf, big.control]);
    expect(await sendError(btc, tx6)).toBe("bad-witness-nonstandard");
  });

  it("taproot control blocks: size and parity", async () => {
    const key = new TestKey();
    const spend = await fundLeaf(bscript.compile([key.xOnly, OPS.OP_CHECKSIG]));
    const build = (control: Uint8Array): Transaction => {
      const tx = spendTx(spend.utxo, sink, 500n);
      tx.setWitness(0, [leafSig(tx, spend, key), spend.leaf, control]);
      return tx;
    };
    expect(await sendError(btc, build(spend.control.subarray(0, 40)))).toBe(
      "mandatory-script-verify-flag-failed (Invalid Taproot control block size)",
    );
    const flipped = Uint8Array.from(spend.control);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(await sendError(btc, build(flipped))).toBe(
      "mandatory-script-verify-flag-failed (Witness program hash mismatch)",
    );
    expect(await sendError(btc, build(spend.control))).toBe("accepted");
  });

  it("transaction rules: duplicate inputs, dust, version, size, lock time, fee ceiling, replacement feerate", async () => {
    const key = new TestKey();
    const wallet = p2wpkhOf(key);
    const utxo = await faucet.payConfirmed(wallet.output, 200_000n);
    const signed = (build: (tx: Transaction) => void): Transaction => {
      const tx = new Transaction();
      tx.version = 2;
      build(tx);
      tx.ins.forEach((_, i) => signP2wpkh(tx, i, key, utxo.value));
      return tx;
    };
    const dup = signed((tx) => {
      tx.addInput(txidBytes(utxo.txid), 0);
      tx.addInput(txidBytes(utxo.txid), 0);
      tx.addOutput(sink, 100_000n);
    });
    expect(await sendError(btc, dup)).toBe("bad-txns-inputs-duplicate");
    const dust = signed((tx) => {
      tx.addInput(txidBytes(utxo.txid), 0);
      tx.addOutput(sink, 293n);
      tx.addOutput(sink, 190_000n);
    });
    expect(await sendError(btc, dust)).toBe("dust");
    const v3 = signed((tx) => {
      tx.version = 3;
      tx.addInput(txidBytes(utxo.txid), 0);
      tx.addOutput(sink, 190_000n);
    });
    expect(await sendError(btc, v3)).toBe("version");
    const small = signed((tx) => {
      tx.addInput(txidBytes(utxo.txid), 0);
      tx.addOutput(bscript.compile([OPS.OP_RETURN]), 0n);
    });
    expect(await sendError(btc, small)).toBe("tx-size-small");
    const tip = await btc.rpc.getBlockCount();
    const locked = signed((tx) => {
      tx.locktime = tip + 2;
      tx.addInput(txidBytes(utxo.txid), 0, 0xfffffffe);
      tx.addOutput(sink, 190_000n);
    });
    expect(await sendError(btc, locked)).toBe("non-final");
    const greedy = signed((tx) => {
      tx.addInput(txidBytes(utxo.txid), 0);
      tx.addOutput(sink, 10_000n);
    });
    const ceiling = await btc.rpc.sendRawTransaction(greedy.toHex(), "0.001").catch((e: unknown) => e);
    expect(ceiling).toMatchObject({
      code: -25,
      rpcMessage: "Fee exceeds maximum configured by user (e.g. -maxtxfee, maxfeerate)",
    });

    const first = signed((tx) => {
      tx.addInput(txidBytes(utxo.txid), 0, 0xfffffffd);
      tx.addOutput(sink, 190_000n);
    });
    expect(await sendError(btc, first)).toBe("accepted");
    const larger = signed((tx) => {
      tx.addInput(txidBytes(utxo.txid), 0, 0xfffffffd);
      tx.addOutput(sink, 179_000n);
      tx.addOutput(sink, 10_000n);
    });
    const replaced = await sendError(btc, larger);
    expect(replaced).toMatch(
      /^insufficient fee, rejecting replacement [0-9a-f]{64}; new feerate 0\.000\d{5} BTC\/kvB <= old feerate 0\.000\d{5} BTC\/kvB$/,
    );
  });
});

/** DER-encodes a 64-byte r||s signature and appends the hash type. */
function derEncode(compact: Uint8Array, hashType: number): Uint8Array {
  return bscript.signature.encode(compact, hashType);
}

import { randomBytes } from "node:crypto";
import { crypto, script as bscript, Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BitcoinTestNode } from "../../../../../../../test/support/bitcoin-node.js";
import type { Faucet } from "./helpers.js";
import {
  startFundedNode,
  rejection,
  leafHash,
  p2trKeyPathOf,
  p2trScriptTree,
  p2wpkhOf,
  signP2wpkh,
  spendTx,
  TestKey,
  type Utxo,
} from "./helpers.js";

const OPS = bscript.OPS;

/** OP_SHA256 <hash> OP_EQUALVERIFY <key> OP_CHECKSIG, the shape of the HTLC redeem leaf. */
function hashlockLeaf(secretHash: Uint8Array, key: TestKey): Uint8Array {
  return bscript.compile([OPS.OP_SHA256, secretHash, OPS.OP_EQUALVERIFY, key.xOnly, OPS.OP_CHECKSIG]);
}

/** <n> OP_CHECKSEQUENCEVERIFY OP_DROP <key> OP_CHECKSIG, the shape of the HTLC refund leaf. */
function csvLeaf(blocks: number, key: TestKey): Uint8Array {
  return bscript.compile([
    bscript.number.encode(blocks),
    OPS.OP_CHECKSEQUENCEVERIFY,
    OPS.OP_DROP,
    key.xOnly,
    OPS.OP_CHECKSIG,
  ]);
}

function signLeaf(
  tx: Transaction,
  utxo: Utxo,
  leaf: Uint8Array,
  key: TestKey,
  hashType = Transaction.SIGHASH_DEFAULT,
): Uint8Array {
  const hash = tx.hashForWitnessV1(0, [utxo.script], [utxo.value], hashType, leafHash(leaf));
  return key.signSchnorr(hash, hashType);
}

describe("spends the node verifies", () => {
  let btc: BitcoinTestNode;
  let faucet: Faucet;
  const sink = p2wpkhOf(new TestKey()).output;

  beforeAll(async () => ({ btc, faucet } = await startFundedNode()));
  afterAll(() => btc.stop());

  it("accepts a P2WPKH spend and rejects one with a wrong ECDSA signature", async () => {
    const key = new TestKey();
    const utxo = await faucet.payConfirmed(p2wpkhOf(key).output, 100_000n);
    const bad = spendTx(utxo, sink, 500n);
    signP2wpkh(bad, 0, new TestKey(), utxo.value);
    bad.setWitness(0, [bad.ins[0]?.witness[0] ?? new Uint8Array(0), key.publicKey]);
    const error = await rejection(btc.rpc.sendRawTransaction(bad.toHex()));
    expect(error.code).toBe(-26);
    expect(error.rpcMessage).toBe(
      "mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation)",
    );
    const good = spendTx(utxo, sink, 500n);
    signP2wpkh(good, 0, key, utxo.value);
    expect(await btc.rpc.sendRawTransaction(good.toHex())).toBe(good.getId());
  });

  it("accepts P2TR key-path spends with every sighash type, including SINGLE|ANYONECANPAY", async () => {
    const key = new TestKey();
    const signer = key.tweakedForKeyPath();
    const output = p2trKeyPathOf(key).output;
    for (const hashType of [0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83]) {
      const utxo = await faucet.pay(output, 50_000n);
      const tx = spendTx(utxo, sink, 400n);
      const hash = tx.hashForWitnessV1(0, [utxo.script], [utxo.value], hashType);
      tx.setWitness(0, [signer.signSchnorr(hash, hashType)]);
      expect(await btc.rpc.sendRawTransaction(tx.toHex()), `sighash 0x${hashType.toString(16)}`).toBe(
        tx.getId(),
      );
    }
  });

  it("rejects a P2TR key-path spend with a bad Schnorr signature", async () => {
    const key = new TestKey();
    const utxo = await faucet.pay(p2trKeyPathOf(key).output, 50_000n);
    const tx = spendTx(utxo, sink, 400n);
    const hash = tx.hashForWitnessV1(0, [utxo.script], [utxo.value], Transaction.SIGHASH_DEFAULT);
    tx.setWitness(0, [key.signSchnorr(hash)]); // signed with the untweaked key
    const error = await rejection(btc.rpc.sendRawTransaction(tx.toHex()));
    expect(error.code).toBe(-26);
    expect(error.rpcMessage).toBe("mandatory-script-verify-flag-failed (Invalid Schnorr signature)");
  });

  it("accepts a script-path hashlock spend and rejects a wrong preimage and a bad signature", async () => {
    const redeemer = new TestKey();
    const refunder = new TestKey();
    const secret = randomBytes(32);
    const leaves: [Uint8Array, Uint8Array] = [
      hashlockLeaf(crypto.sha256(secret), redeemer),
      csvLeaf(10, refunder),
    ];
    const tree = p2trScriptTree(new TestKey(), leaves);
    const utxo = await faucet.payConfirmed(tree.output, 80_000n);
    const spend = (preimage: Uint8Array, key: TestKey): Transaction => {
      const tx = spendTx(utxo, sink, 600n);
      tx.setWitness(0, [signLeaf(tx, utxo, leaves[0], key), preimage, leaves[0], tree.controlBlock(0)]);
      return tx;
    };

    const wrongSecret = await rejection(btc.rpc.sendRawTransaction(spend(randomBytes(32), redeemer).toHex()));
    expect(wrongSecret.rpcMessage).toBe(
      "mandatory-script-verify-flag-failed (Script failed an OP_EQUALVERIFY operation)",
    );
    const wrongKey = await rejection(btc.rpc.sendRawTransaction(spend(secret, refunder).toHex()));
    expect(wrongKey.rpcMessage).toBe("mandatory-script-verify-flag-failed (Invalid Schnorr signature)");
    const wrongControl = spendTx(utxo, sink, 600n);
    wrongControl.setWitness(0, [
      signLeaf(wrongControl, utxo, leaves[0], redeemer),
      secret,
      leaves[0],
      tree.controlBlock(1),
    ]);
    const mismatch = await rejection(btc.rpc.sendRawTransaction(wrongControl.toHex()));
    expect(mismatch.rpcMessage).toBe("mandatory-script-verify-flag-failed (Witness program hash mismatch)");

    const good = spend(secret, redeemer);
    expect(await btc.rpc.sendRawTransaction(good.toHex())).toBe(good.getId());
    const decoded = await btc.rpc.getRawTransactionVerbose(good.getId());
    expect(decoded.vin[0]?.txinwitness[1]).toBe(Buffer.from(secret).toString("hex"));
  });

  it("holds a CSV-locked leaf until the input is deep enough, then accepts it", async () => {
    const refunder = new TestKey();
    const blocks = 5;
    const leaves: [Uint8Array, Uint8Array] = [
      hashlockLeaf(crypto.sha256(randomBytes(32)), new TestKey()),
      csvLeaf(blocks, refunder),
    ];
    const tree = p2trScriptTree(new TestKey(), leaves);
    const utxo = await faucet.payConfirmed(tree.output, 80_000n);
    const refund = (sequence: number): Transaction => {
      const tx = spendTx(utxo, sink, 600n, sequence);
      tx.setWitness(0, [signLeaf(tx, utxo, leaves[1], refunder), leaves[1], tree.controlBlock(1)]);
      return tx;
    };

    const early = await rejection(btc.rpc.sendRawTransaction(refund(blocks).toHex()));
    expect(early.rpcMessage).toBe("non-BIP68-final");
    await btc.rpc.generateToAddress(blocks - 2, faucet.burnAddress);
    const [stillEarly] = await btc.rpc.testMempoolAccept([refund(blocks).toHex()]);
    expect(stillEarly).toMatchObject({ allowed: false, "reject-reason": "non-BIP68-final" });

    await btc.rpc.generateToAddress(1, faucet.burnAddress);
    const shortSequence = await rejection(btc.rpc.sendRawTransaction(refund(blocks - 1).toHex()));
    expect(shortSequence.rpcMessage).toBe(
      "mandatory-script-verify-flag-failed (Locktime requirement not satisfied)",
    );
    const tx = refund(blocks);
    expect(await btc.rpc.sendRawTransaction(tx.toHex())).toBe(tx.getId());
    await btc.rpc.generateToAddress(1, faucet.burnAddress);
    expect((await btc.rpc.getRawTransactionVerbose(tx.getId())).confirmations).toBe(1);
  });

  it("accepts a 2-of-2 OP_CHECKSIGADD leaf signed SINGLE|ANYONECANPAY and refuses it with one signature empty", async () => {
    const initiator = new TestKey();
    const redeemer = new TestKey();
    const leaf = bscript.compile([
      initiator.xOnly,
      OPS.OP_CHECKSIG,
      redeemer.xOnly,
      OPS.OP_CHECKSIGADD,
      OPS.OP_2,
      OPS.OP_NUMEQUAL,
    ]);
    const leaves: [Uint8Array, Uint8Array] = [hashlockLeaf(crypto.sha256(randomBytes(32)), redeemer), leaf];
    const tree = p2trScriptTree(new TestKey(), leaves);
    const utxo = await faucet.payConfirmed(tree.output, 70_000n);
    const hashType = Transaction.SIGHASH_SINGLE | Transaction.SIGHASH_ANYONECANPAY;
    const tx = spendTx(utxo, sink, 700n);
    const redeemerSig = signLeaf(tx, utxo, leaf, redeemer, hashType);
    const initiatorSig = signLeaf(tx, utxo, leaf, initiator, hashType);

    const oneSig = spendTx(utxo, sink, 700n);
    oneSig.setWitness(0, [new Uint8Array(0), initiatorSig, leaf, tree.controlBlock(1)]);
    const error = await rejection(btc.rpc.sendRawTransaction(oneSig.toHex()));
    expect(error.rpcMessage).toBe(
      "mandatory-script-verify-flag-failed (Script evaluated without error but finished with a false/empty top stack element)",
    );
    tx.setWitness(0, [redeemerSig, initiatorSig, leaf, tree.controlBlock(1)]);
    expect(await btc.rpc.sendRawTransaction(tx.toHex())).toBe(tx.getId());
  });
});

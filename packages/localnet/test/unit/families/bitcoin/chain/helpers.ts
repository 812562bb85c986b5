import { randomBytes } from "node:crypto";
import { crypto, initEccLib, networks, payments, script as bscript, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import type { BitcoinRpcClient, BitcoinRpcError } from "htlc-solver/chains/bitcoin/rpc.js";
import {
  startBitcoinForTests,
  type BitcoinTestNode,
} from "../../../../../../../test/support/bitcoin-node.js";

initEccLib(ecc);
export const network = networks.regtest;

/** A test key: 32 random bytes and its public keys. */
export class TestKey {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly xOnly: Uint8Array;

  constructor(privateKey: Uint8Array = randomBytes(32)) {
    this.privateKey = privateKey;
    const pub = ecc.pointFromScalar(privateKey, true);
    if (pub === null) throw new Error("invalid test private key");
    this.publicKey = pub;
    this.xOnly = pub.subarray(1, 33);
  }

  signEcdsaDer(hash: Uint8Array, hashType: number): Uint8Array {
    return bscript.signature.encode(ecc.sign(hash, this.privateKey), hashType);
  }

  signSchnorr(hash: Uint8Array, hashType = Transaction.SIGHASH_DEFAULT): Uint8Array {
    const sig = ecc.signSchnorr(hash, this.privateKey, randomBytes(32));
    return hashType === Transaction.SIGHASH_DEFAULT ? sig : Uint8Array.from([...sig, hashType]);
  }

  /** Key-path signer of the P2TR output with this internal key and no script tree. */
  tweakedForKeyPath(): TestKey {
    const tweak = crypto.taggedHash("TapTweak", this.xOnly);
    const base = this.publicKey[0] === 0x03 ? ecc.privateNegate(this.privateKey) : this.privateKey;
    const tweaked = ecc.privateAdd(base, tweak);
    if (tweaked === null) throw new Error("tweak produced an invalid key");
    return new TestKey(tweaked);
  }
}

export function p2wpkhOf(key: TestKey): { address: string; output: Uint8Array } {
  const p = payments.p2wpkh({ pubkey: key.publicKey, network });
  if (p.address === undefined || p.output === undefined) throw new Error("p2wpkh payment incomplete");
  return { address: p.address, output: p.output };
}

export function p2trKeyPathOf(key: TestKey): { address: string; output: Uint8Array } {
  const p = payments.p2tr({ internalPubkey: key.xOnly, network });
  if (p.address === undefined || p.output === undefined) throw new Error("p2tr payment incomplete");
  return { address: p.address, output: p.output };
}

export const LEAF_VERSION = 0xc0;

export function leafHash(leaf: Uint8Array): Uint8Array {
  return crypto.taggedHash("TapLeaf", Uint8Array.from([LEAF_VERSION, ...compactSize(leaf.length), ...leaf]));
}

function compactSize(n: number): number[] {
  if (n < 0xfd) return [n];
  return [0xfd, n & 0xff, n >> 8];
}

/** A P2TR output with an unspendable-looking internal key and a tree of leaves, plus each leaf's control block. */
export function p2trScriptTree(
  internal: TestKey,
  leaves: [Uint8Array, Uint8Array],
): { address: string; output: Uint8Array; controlBlock(leaf: 0 | 1): Uint8Array } {
  const scriptTree: [{ output: Uint8Array }, { output: Uint8Array }] = [
    { output: leaves[0] },
    { output: leaves[1] },
  ];
  const base = payments.p2tr({ internalPubkey: internal.xOnly, scriptTree, network });
  if (base.address === undefined || base.output === undefined) throw new Error("p2tr payment incomplete");
  return {
    address: base.address,
    output: base.output,
    controlBlock: (leaf) => {
      const redeem = { output: leaves[leaf], redeemVersion: LEAF_VERSION };
      const p = payments.p2tr({ internalPubkey: internal.xOnly, scriptTree, redeem, network });
      const control = p.witness?.[p.witness.length - 1];
      if (control === undefined) throw new Error("no control block");
      return control;
    },
  };
}

export interface Utxo {
  txid: string;
  vout: number;
  value: bigint;
  script: Uint8Array;
}

export function txidBytes(txid: string): Uint8Array {
  return Uint8Array.from(Buffer.from(txid, "hex").reverse());
}

/** Signs input `index` (a P2WPKH output of `key`) with SIGHASH_ALL. */
export function signP2wpkh(tx: Transaction, index: number, key: TestKey, value: bigint): void {
  const scriptCode = payments.p2pkh({ pubkey: key.publicKey, network }).output;
  if (scriptCode === undefined) throw new Error("no scriptCode");
  const hash = tx.hashForWitnessV0(index, scriptCode, value, Transaction.SIGHASH_ALL);
  tx.setWitness(index, [key.signEcdsaDer(hash, Transaction.SIGHASH_ALL), key.publicKey]);
}

/**
 * Funds tests from coinbase outputs: mines one block to its own key, buries it 100 deep, then pays
 * out of it, keeping its change for the next payment. Works on a fresh or a long-lived regtest chain.
 */
export class Faucet {
  readonly key = new TestKey();
  readonly wallet = p2wpkhOf(this.key);
  readonly burnAddress = p2wpkhOf(new TestKey()).address;
  #utxo: Utxo | null = null;

  constructor(readonly rpc: BitcoinRpcClient) {}

  /** Mines a coinbase to the faucet and matures it. */
  async init(): Promise<void> {
    const [hash] = await this.rpc.generateToAddress(1, this.wallet.address);
    if (hash === undefined) throw new Error("no block mined");
    const block = await this.rpc.getBlock(hash, 2);
    const coinbase = block.tx[0];
    const out = coinbase?.vout[0];
    if (coinbase === undefined || out === undefined) throw new Error("block without coinbase");
    this.#utxo = { txid: coinbase.txid, vout: 0, value: out.valueSats, script: this.wallet.output };
    await this.rpc.generateToAddress(100, this.burnAddress);
  }

  /** Builds (unsent) a signed payment of `value` to `script` with 1000 sats fee; returns the tx and the paid output. */
  buildPayment(script: Uint8Array, value: bigint, fee = 1_000n): { tx: Transaction; utxo: Utxo } {
    const from = this.#utxo;
    if (from === null) throw new Error("faucet not initialised");
    const tx = new Transaction();
    tx.version = 2;
    tx.addInput(txidBytes(from.txid), from.vout, 0xfffffffd);
    tx.addOutput(script, value);
    tx.addOutput(this.wallet.output, from.value - value - fee);
    signP2wpkh(tx, 0, this.key, from.value);
    return { tx, utxo: { txid: tx.getId(), vout: 0, value, script } };
  }

  /** Pays and broadcasts; the change becomes the faucet's next coin (spendable unconfirmed). */
  async pay(script: Uint8Array, value: bigint): Promise<Utxo> {
    const { tx, utxo } = this.buildPayment(script, value);
    await this.rpc.sendRawTransaction(tx.toHex());
    const change = tx.outs[1];
    if (change === undefined) throw new Error("payment without change");
    this.#utxo = { txid: tx.getId(), vout: 1, value: change.value, script: this.wallet.output };
    return utxo;
  }

  /** Pays and mines the payment into a block. */
  async payConfirmed(script: Uint8Array, value: bigint): Promise<Utxo> {
    const utxo = await this.pay(script, value);
    await this.rpc.generateToAddress(1, this.burnAddress);
    return utxo;
  }
}

/** A one-input, one-output spend of `utxo` to `to`, paying `fee`. */
export function spendTx(utxo: Utxo, to: Uint8Array, fee: bigint, sequence = 0xffffffff): Transaction {
  const tx = new Transaction();
  tx.version = 2;
  tx.addInput(txidBytes(utxo.txid), utxo.vout, sequence);
  tx.addOutput(to, utxo.value - fee);
  return tx;
}

/** A node (local, or the real bitcoind the environment names) with a faucet ready to pay. */
export async function startFundedNode(): Promise<{ btc: BitcoinTestNode; faucet: Faucet }> {
  const btc = await startBitcoinForTests();
  const faucet = new Faucet(btc.rpc);
  await faucet.init();
  return { btc, faucet };
}

/** The error a promise of the node rejects with; fails the test when the node accepts instead. */
export async function rejection(promise: Promise<unknown>): Promise<BitcoinRpcError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error === null) throw new Error("expected the node to reject the transaction");
  return error as BitcoinRpcError;
}

import { Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { toCompact } from "./ecdsa-encoding.js";
import { REGTEST } from "./params.js";
import { ScriptFailure } from "./script-error.js";
import type { SignatureChecker } from "./script-context.js";

/** An output being spent: what the signature hashes commit to. */
export interface SpentOutput {
  script: Uint8Array;
  value: bigint;
}

const SEQUENCE_DISABLE_FLAG = 0x80000000;
const SEQUENCE_TYPE_FLAG = 0x00400000;
const SEQUENCE_MASK = 0x0000ffff;

/** Signature and lock-time checks of one input of a transaction (BIP-143, BIP-341/342, BIP-65/112). */
export class TransactionSignatureChecker implements SignatureChecker {
  /** Set for script-path spends: commits the signature to the executed leaf. */
  leafHash: Uint8Array | undefined;
  annex: Uint8Array | undefined;

  constructor(
    readonly tx: Transaction,
    readonly index: number,
    readonly spent: SpentOutput[],
  ) {}

  private get input(): Transaction["ins"][number] {
    const input = this.tx.ins[this.index];
    if (input === undefined) throw new Error(`input ${this.index} does not exist`);
    return input;
  }

  checkEcdsa(signature: Uint8Array, pubkey: Uint8Array, scriptCode: Uint8Array): boolean {
    const hashType = signature[signature.length - 1] ?? 0;
    const compact = toCompact(signature.subarray(0, signature.length - 1));
    const spent = this.spent[this.index];
    if (compact === null || spent === undefined) return false;
    const digest = this.tx.hashForWitnessV0(this.index, scriptCode, spent.value, hashType);
    try {
      // Non-strict: like Bitcoin Core, a high S verifies at the consensus level (policy refuses it earlier).
      return ecc.verify(digest, pubkey, compact, false);
    } catch {
      return false; // unparsable key or r/s out of range
    }
  }

  checkSchnorr(signature: Uint8Array, pubkey: Uint8Array): void {
    let hashType = Transaction.SIGHASH_DEFAULT;
    let sig = signature;
    if (signature.length === 65) {
      hashType = signature[64] ?? 0;
      if (hashType === Transaction.SIGHASH_DEFAULT) throw new ScriptFailure("SCHNORR_SIG_HASHTYPE");
      sig = signature.subarray(0, 64);
    } else if (signature.length !== 64) {
      throw new ScriptFailure("SCHNORR_SIG_SIZE");
    }
    if (!this.isValidTaprootHashType(hashType)) throw new ScriptFailure("SCHNORR_SIG_HASHTYPE");
    const digest = this.tx.hashForWitnessV1(
      this.index,
      this.spent.map((s) => s.script),
      this.spent.map((s) => s.value),
      hashType,
      this.leafHash,
      this.annex,
    );
    let valid = false;
    try {
      valid = ecc.verifySchnorr(digest, pubkey, sig);
    } catch {
      valid = false; // key not on the curve
    }
    if (!valid) throw new ScriptFailure("SCHNORR_SIG");
  }

  private isValidTaprootHashType(hashType: number): boolean {
    if (!(hashType <= 0x03 || (hashType >= 0x81 && hashType <= 0x83))) return false;
    // SIGHASH_SINGLE needs an output at the input's index.
    return (hashType & 0x03) !== Transaction.SIGHASH_SINGLE || this.index < this.tx.outs.length;
  }

  checkLockTime(lockTime: bigint): boolean {
    const txLockTime = BigInt(this.tx.locktime);
    const threshold = BigInt(REGTEST.locktimeThreshold);
    if (txLockTime < threshold !== lockTime < threshold) return false;
    if (lockTime > txLockTime) return false;
    // A final input would make nLockTime ineffective, and with it the check.
    return this.input.sequence !== 0xffffffff;
  }

  checkSequence(sequence: bigint): boolean {
    const txSequence = this.input.sequence;
    if (this.tx.version >>> 0 < 2) return false;
    if ((txSequence & SEQUENCE_DISABLE_FLAG) !== 0) return false;
    const mask = BigInt(SEQUENCE_TYPE_FLAG | SEQUENCE_MASK);
    const txMasked = BigInt(txSequence) & mask;
    const wanted = sequence & mask;
    const typeFlag = BigInt(SEQUENCE_TYPE_FLAG);
    if (txMasked < typeFlag !== wanted < typeFlag) return false;
    return wanted <= txMasked;
  }
}

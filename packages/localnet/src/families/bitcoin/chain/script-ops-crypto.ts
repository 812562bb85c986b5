import { crypto } from "bitcoinjs-lib";
import {
  isCompressedOrUncompressedPubKey,
  isCompressedPubKey,
  isDefinedHashType,
  isLowS,
  isValidSignatureEncoding,
} from "./ecdsa-encoding.js";
import { ScriptFailure, UnsupportedScriptError } from "./script-error.js";
import type { ScriptContext } from "./script-context.js";
import type { OpHandler } from "./script-ops-stack.js";

function hashOp(fn: (data: Uint8Array) => Uint8Array): OpHandler {
  return (ctx) => ctx.push(fn(ctx.pop()));
}

function checkEcdsaEncoding(ctx: ScriptContext, sig: Uint8Array, pubkey: Uint8Array): void {
  if (sig.length > 0) {
    // DERSIG is consensus; LOW_S and STRICTENC are standardness rules.
    if (!isValidSignatureEncoding(sig)) throw new ScriptFailure("SIG_DER");
    if (ctx.policy && !isLowS(sig)) throw new ScriptFailure("SIG_HIGH_S");
    if (ctx.policy && !isDefinedHashType(sig)) throw new ScriptFailure("SIG_HASHTYPE");
  }
  if (ctx.policy && !isCompressedOrUncompressedPubKey(pubkey)) throw new ScriptFailure("PUBKEYTYPE");
  if (ctx.policy && !isCompressedPubKey(pubkey)) throw new ScriptFailure("WITNESS_PUBKEYTYPE");
}

/** OP_CHECKSIG in witness v0 scripts: ECDSA over the BIP-143 digest. */
function checksigV0(ctx: ScriptContext): boolean {
  ctx.need(2);
  const pubkey = ctx.pop();
  const sig = ctx.pop();
  checkEcdsaEncoding(ctx, sig, pubkey);
  const ok = sig.length > 0 && ctx.checker.checkEcdsa(sig, pubkey, ctx.script);
  if (!ok && ctx.policy && sig.length > 0) throw new ScriptFailure("SIG_NULLFAIL");
  return ok;
}

/**
 * BIP-342 signature check: an empty signature is a plain false, a non-empty one must verify. Keys of
 * other sizes than 32 bytes are "unknown key types": accepted, but non-standard.
 */
function checksigTapscript(ctx: ScriptContext, sig: Uint8Array, pubkey: Uint8Array): boolean {
  const nonEmpty = sig.length > 0;
  if (nonEmpty) {
    ctx.validationWeightLeft -= 50;
    if (ctx.validationWeightLeft < 0) throw new ScriptFailure("TAPSCRIPT_VALIDATION_WEIGHT");
  }
  if (pubkey.length === 0) throw new ScriptFailure("PUBKEYTYPE");
  if (pubkey.length === 32) {
    if (nonEmpty) ctx.checker.checkSchnorr(sig, pubkey);
  } else if (ctx.policy) {
    throw new ScriptFailure("DISCOURAGE_UPGRADABLE_PUBKEYTYPE");
  }
  return nonEmpty;
}

function checksig(ctx: ScriptContext): boolean {
  if (ctx.sigVersion === "witness_v0") return checksigV0(ctx);
  ctx.need(2);
  const pubkey = ctx.pop();
  const sig = ctx.pop();
  return checksigTapscript(ctx, sig, pubkey);
}

function checksigAdd(ctx: ScriptContext): void {
  if (ctx.sigVersion !== "tapscript") throw new ScriptFailure("BAD_OPCODE");
  ctx.need(3);
  const pubkey = ctx.pop();
  const n = ctx.popNum();
  const sig = ctx.pop();
  ctx.pushNum(n + (checksigTapscript(ctx, sig, pubkey) ? 1n : 0n));
}

function checkLockTimeVerify(ctx: ScriptContext): void {
  const lockTime = ctx.peekNum(5);
  if (lockTime < 0n) throw new ScriptFailure("NEGATIVE_LOCKTIME");
  if (!ctx.checker.checkLockTime(lockTime)) throw new ScriptFailure("UNSATISFIED_LOCKTIME");
}

function checkSequenceVerify(ctx: ScriptContext): void {
  const sequence = ctx.peekNum(5);
  if (sequence < 0n) throw new ScriptFailure("NEGATIVE_LOCKTIME");
  // With the disable flag set the operand means nothing yet (reserved for soft forks).
  if ((sequence & (1n << 31n)) !== 0n) return;
  if (!ctx.checker.checkSequence(sequence)) throw new ScriptFailure("UNSATISFIED_LOCKTIME");
}

function upgradableNop(ctx: ScriptContext): void {
  if (ctx.policy) throw new ScriptFailure("DISCOURAGE_UPGRADABLE_NOPS");
}

function multisig(ctx: ScriptContext): void {
  if (ctx.sigVersion === "tapscript") throw new ScriptFailure("TAPSCRIPT_CHECKMULTISIG");
  throw new UnsupportedScriptError("OP_CHECKMULTISIG is not implemented by the local regtest node");
}

/** Hashes, signature checks and lock-time checks. */
export const CRYPTO_OPS: ReadonlyMap<number, OpHandler> = new Map<number, OpHandler>([
  [0xa6, hashOp(crypto.ripemd160)], // OP_RIPEMD160
  [0xa7, hashOp(crypto.sha1)], // OP_SHA1
  [0xa8, hashOp(crypto.sha256)], // OP_SHA256
  [0xa9, hashOp(crypto.hash160)], // OP_HASH160
  [0xaa, hashOp(crypto.hash256)], // OP_HASH256
  [
    0xab, // OP_CODESEPARATOR
    () => {
      throw new UnsupportedScriptError("OP_CODESEPARATOR is not implemented by the local regtest node");
    },
  ],
  [0xac, (ctx) => ctx.pushBool(checksig(ctx))], // OP_CHECKSIG
  [
    0xad, // OP_CHECKSIGVERIFY
    (ctx) => {
      if (!checksig(ctx)) throw new ScriptFailure("CHECKSIGVERIFY");
    },
  ],
  [0xae, multisig],
  [0xaf, multisig],
  [0xb0, upgradableNop], // OP_NOP1
  [0xb1, checkLockTimeVerify],
  [0xb2, checkSequenceVerify],
  ...[0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9].map((op): [number, OpHandler] => [op, upgradableNop]),
  [0xba, checksigAdd],
]);

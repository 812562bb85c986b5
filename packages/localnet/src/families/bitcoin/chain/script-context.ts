import { ScriptFailure } from "./script-error.js";
import { castToBool, decodeScriptNum, encodeScriptNum } from "./script-num.js";

export type SigVersion = "witness_v0" | "tapscript";

/** What a script needs from the transaction: signature and lock-time checks of the spending input. */
export interface SignatureChecker {
  /** ECDSA (BIP-143) check of an already encoding-checked signature; false when it does not verify. */
  checkEcdsa(signature: Uint8Array, pubkey: Uint8Array, scriptCode: Uint8Array): boolean;
  /** BIP-340/342 check of a non-empty signature against a 32-byte key; throws the Schnorr errors. */
  checkSchnorr(signature: Uint8Array, pubkey: Uint8Array): void;
  checkLockTime(lockTime: bigint): boolean;
  checkSequence(sequence: bigint): boolean;
}

/** The state of one script execution. */
export class ScriptContext {
  readonly stack: Uint8Array[];
  readonly altstack: Uint8Array[] = [];
  /** BIP-342 signature budget: witness size + 50, minus 50 per signature checked. */
  validationWeightLeft: number;

  constructor(
    readonly sigVersion: SigVersion,
    /** Standardness flags on (mempool) or consensus flags only (block). */
    readonly policy: boolean,
    readonly checker: SignatureChecker,
    readonly script: Uint8Array,
    initialStack: Uint8Array[],
    validationWeight: number,
  ) {
    this.stack = [...initialStack];
    this.validationWeightLeft = validationWeight;
  }

  get requireMinimal(): boolean {
    return this.policy;
  }

  /** Element `depth` from the top (1 = top); fails like bitcoind when the stack is too short. */
  top(depth = 1): Uint8Array {
    const item = this.stack[this.stack.length - depth];
    if (item === undefined || depth < 1) throw new ScriptFailure("INVALID_STACK_OPERATION");
    return item;
  }

  need(count: number): void {
    if (this.stack.length < count) throw new ScriptFailure("INVALID_STACK_OPERATION");
  }

  pop(): Uint8Array {
    const item = this.stack.pop();
    if (item === undefined) throw new ScriptFailure("INVALID_STACK_OPERATION");
    return item;
  }

  push(item: Uint8Array): void {
    this.stack.push(item);
  }

  popNum(maxSize = 4): bigint {
    return decodeScriptNum(this.pop(), this.requireMinimal, maxSize);
  }

  /** Reads the top element as a number without removing it (CHECKLOCKTIMEVERIFY, CHECKSEQUENCEVERIFY). */
  peekNum(maxSize: number): bigint {
    return decodeScriptNum(this.top(), this.requireMinimal, maxSize);
  }

  pushNum(value: bigint): void {
    this.stack.push(encodeScriptNum(value));
  }

  pushBool(value: boolean): void {
    this.stack.push(value ? Uint8Array.of(1) : new Uint8Array(0));
  }

  popBool(): boolean {
    return castToBool(this.pop());
  }
}

/**
 * The HTLC program's instructions that a landed transaction ran, read from the instructions themselves:
 * top-level ones and those other programs made (CPIs), with the keys a version 0 transaction loaded from
 * lookup tables. Logs are not enough: a node cuts them past 10 KB, so a redeem sent through a program that
 * first logs that much would leave no event behind. A transaction that landed without an error ran every
 * instruction it holds, so each call found here took effect.
 */
import type { PublicKey } from "@solana/web3.js";
import {
  DISCRIMINATOR_BYTES,
  bytesEqual,
  instructionDiscriminator,
  type HtlcInstructionName,
} from "./anchor.js";
import { base58Decode } from "./base58.js";
import { BorshReader } from "./borsh.js";
import type { HtlcProgramKind } from "./errors.js";
import type { SolanaProgramVersion } from "./program-version.js";
import type { CompiledInstruction, TransactionAnswer } from "./rpc-schemas.js";

export type HtlcCall =
  | { name: "initiate"; swapAccount: string; secretHash: Uint8Array; swapAmount: bigint; timelock: bigint }
  | { name: "redeem"; swapAccount: string; secret: Uint8Array }
  | { name: "refund" | "instant_refund"; swapAccount: string };

export interface HtlcProgram {
  id: PublicKey;
  kind: HtlcProgramKind;
  /** Which interface the program speaks (its initiate's arguments differ); current when left out. */
  version?: SolanaProgramVersion;
}

const NAMES: HtlcInstructionName[] = ["initiate", "redeem", "refund", "instant_refund"];

/** Position of the swap account among an instruction's accounts: the SPL program puts its identity first. */
function swapAccountIndex(kind: HtlcProgramKind): number {
  return kind === "spl" ? 1 : 0;
}

/** Every key a transaction's instructions index: static keys, then loaded writable, then loaded read-only. */
export function accountKeys(tx: TransactionAnswer): string[] {
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

/** Top-level instructions and, after each, the calls it made into other programs, in execution order. */
export function executed(tx: TransactionAnswer): CompiledInstruction[] {
  const inner = new Map((tx.meta?.innerInstructions ?? []).map((entry) => [entry.index, entry.instructions]));
  return tx.transaction.message.instructions.flatMap((ix, index) => [ix, ...(inner.get(index) ?? [])]);
}

/** initiate's amount and timelock, from the arguments of the program's version. */
function initiateArgs(
  program: HtlcProgram,
  r: BorshReader,
): { secretHash: Uint8Array; swapAmount: bigint; timelock: bigint } {
  if (program.version !== "legacy") {
    r.pubkey(); // redeemer and refundee seed the swap account: its address already commits to them
    r.pubkey();
    const secretHash = r.bytes(32);
    return { secretHash, swapAmount: r.u64(), timelock: r.u64() };
  }
  if (program.kind === "native") {
    const swapAmount = r.u64();
    const timelock = r.u64();
    r.pubkey(); // redeemer
    return { swapAmount, timelock, secretHash: r.bytes(32) };
  }
  const timelock = r.u64();
  r.pubkey(); // redeemer
  const secretHash = r.bytes(32);
  return { secretHash, swapAmount: r.u64(), timelock };
}

function decodeCall(program: HtlcProgram, data: Uint8Array, swapAccount: string): HtlcCall | null {
  const head = data.subarray(0, DISCRIMINATOR_BYTES);
  const name = NAMES.find((n) => bytesEqual(head, instructionDiscriminator(n)));
  if (name === undefined) return null;
  const r = new BorshReader(data, DISCRIMINATOR_BYTES, `${name} instruction`);
  switch (name) {
    case "initiate":
      return { name, swapAccount, ...initiateArgs(program, r) };
    case "redeem":
      return { name, swapAccount, secret: r.bytes(32) };
    case "refund":
    case "instant_refund":
      return { name, swapAccount };
  }
}

/**
 * The HTLC calls of `program` in a transaction that landed, in the order they ran; none when it failed.
 * An instruction of the program that does not decode is skipped: the program would have refused it, so
 * it cannot be in a transaction that landed without error.
 */
export function htlcCallsIn(tx: TransactionAnswer, program: HtlcProgram): HtlcCall[] {
  if (tx.meta === null || (tx.meta.err !== null && tx.meta.err !== undefined)) return [];
  const keys = accountKeys(tx);
  const programId = program.id.toBase58();
  const calls: HtlcCall[] = [];
  for (const ix of executed(tx)) {
    if (keys[ix.programIdIndex] !== programId) continue;
    const accountIndex = ix.accounts[swapAccountIndex(program.kind)];
    const swapAccount = accountIndex === undefined ? undefined : keys[accountIndex];
    if (swapAccount === undefined) continue;
    try {
      const call = decodeCall(program, base58Decode(ix.data), swapAccount);
      if (call !== null) calls.push(call);
    } catch {
      continue;
    }
  }
  return calls;
}

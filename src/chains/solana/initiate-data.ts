/** The amount an HTLC initiate instruction locks, read from its data at the version's offset (pure). */
import { bytesEqual, instructionDiscriminator } from "./anchor.js";
import { BorshReader } from "./borsh.js";

/** swap_amount at `offset` of an initiate's data; null for any other instruction. */
export function amountAt(data: Uint8Array, offset: number): bigint | null {
  if (!bytesEqual(data.subarray(0, 8), instructionDiscriminator("initiate"))) return null;
  return new BorshReader(data, offset, "initiate data").u64();
}

/** Anchor's discriminators: the first 8 bytes of sha256 of "<namespace>:<name>". */
import { createHash } from "node:crypto";

export const DISCRIMINATOR_BYTES = 8;

function discriminator(preimage: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(preimage).digest().subarray(0, DISCRIMINATOR_BYTES));
}

export type HtlcInstructionName = "initiate" | "redeem" | "refund" | "instant_refund";
export type HtlcEventName = "Initiated" | "Redeemed" | "Refunded" | "InstantRefunded";

/** sha256("global:<name>")[0..8], the first bytes of every instruction's data. */
export function instructionDiscriminator(name: HtlcInstructionName): Uint8Array {
  return discriminator(`global:${name}`);
}

/** sha256("account:<Type>")[0..8], the first bytes of an account's data. */
export function accountDiscriminator(type: "SwapAccount"): Uint8Array {
  return discriminator(`account:${type}`);
}

/** sha256("event:<Name>")[0..8], the first bytes of an event's `Program data:` payload. */
export function eventDiscriminator(name: HtlcEventName): Uint8Array {
  return discriminator(`event:${name}`);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

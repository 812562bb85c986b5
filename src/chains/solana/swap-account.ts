/** Decoding of the HTLC programs' SwapAccount (two layouts: native and SPL). */
import type { PublicKey } from "@solana/web3.js";
import { DISCRIMINATOR_BYTES, accountDiscriminator, bytesEqual } from "./anchor.js";
import { BorshReader } from "./borsh.js";
import { SolanaDecodeError } from "./errors.js";

export interface NativeSwapAccount {
  expirySlot: bigint;
  bump: number;
  redeemer: PublicKey;
  refundee: PublicKey;
  secretHash: Uint8Array;
  swapAmount: bigint;
  rentSponsor: PublicKey;
  timelock: bigint;
}

export interface SplSwapAccount {
  bump: number;
  expirySlot: bigint;
  identityPdaBump: number;
  rentSponsor: PublicKey;
  mint: PublicKey;
  redeemer: PublicKey;
  refundee: PublicKey;
  secretHash: Uint8Array;
  swapAmount: bigint;
  timelock: bigint;
}

/** A reader past the SwapAccount discriminator, which every version's account starts with. */
export function swapAccountReader(data: Uint8Array, what: string): BorshReader {
  if (
    data.length < DISCRIMINATOR_BYTES ||
    !bytesEqual(data.subarray(0, DISCRIMINATOR_BYTES), accountDiscriminator("SwapAccount"))
  ) {
    throw new SolanaDecodeError(`${what}: not a SwapAccount (discriminator mismatch or too short)`);
  }
  return new BorshReader(data, DISCRIMINATOR_BYTES, what);
}

export function decodeNativeSwapAccount(data: Uint8Array): NativeSwapAccount {
  const r = swapAccountReader(data, "native SwapAccount");
  return {
    expirySlot: r.u64(),
    bump: r.u8(),
    redeemer: r.pubkey(),
    refundee: r.pubkey(),
    secretHash: r.bytes(32),
    swapAmount: r.u64(),
    rentSponsor: r.pubkey(),
    timelock: r.u64(),
  };
}

export function decodeSplSwapAccount(data: Uint8Array): SplSwapAccount {
  const r = swapAccountReader(data, "SPL SwapAccount");
  return {
    bump: r.u8(),
    expirySlot: r.u64(),
    identityPdaBump: r.u8(),
    rentSponsor: r.pubkey(),
    mint: r.pubkey(),
    redeemer: r.pubkey(),
    refundee: r.pubkey(),
    secretHash: r.bytes(32),
    swapAmount: r.u64(),
    timelock: r.u64(),
  };
}

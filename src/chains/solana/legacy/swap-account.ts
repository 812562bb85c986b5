/** Decoding of the legacy programs' SwapAccount: neither layout stores a timelock or a bump; SPL no mint. */
import type { PublicKey } from "@solana/web3.js";
import { swapAccountReader } from "../swap-account.js";

/** 120 bytes; the initiator paid the rent and gets it back on close. */
export interface LegacyNativeSwapAccount {
  swapAmount: bigint;
  expirySlot: bigint;
  initiator: PublicKey;
  redeemer: PublicKey;
  secretHash: Uint8Array;
}

/** 153 bytes; the sponsor paid the rent and gets it back on close. */
export interface LegacySplSwapAccount {
  expirySlot: bigint;
  initiator: PublicKey;
  redeemer: PublicKey;
  secretHash: Uint8Array;
  swapAmount: bigint;
  identityPdaBump: number;
  sponsor: PublicKey;
}

export function decodeLegacyNativeSwapAccount(data: Uint8Array): LegacyNativeSwapAccount {
  const r = swapAccountReader(data, "legacy native SwapAccount");
  return {
    swapAmount: r.u64(),
    expirySlot: r.u64(),
    initiator: r.pubkey(),
    redeemer: r.pubkey(),
    secretHash: r.bytes(32),
  };
}

export function decodeLegacySplSwapAccount(data: Uint8Array): LegacySplSwapAccount {
  const r = swapAccountReader(data, "legacy SPL SwapAccount");
  return {
    expirySlot: r.u64(),
    initiator: r.pubkey(),
    redeemer: r.pubkey(),
    secretHash: r.bytes(32),
    swapAmount: r.u64(),
    identityPdaBump: r.u8(),
    sponsor: r.pubkey(),
  };
}

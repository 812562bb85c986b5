import type { PublicKey } from "@solana/web3.js";

/** What identifies one swap in both HTLC programs (and seeds its account), amounts in base units. */
export interface SwapTerms {
  redeemer: PublicKey;
  refundee: PublicKey;
  /** sha256 of the secret, 32 bytes. */
  secretHash: Uint8Array;
  swapAmount: bigint;
  /** Slots after initiation from which a refund is allowed (refund needs slot > expiry slot). */
  timelock: bigint;
}

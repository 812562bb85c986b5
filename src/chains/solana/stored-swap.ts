import type { PublicKey } from "@solana/web3.js";

/**
 * What a swap account stores, as the solver reads it. `timelock` is null where the account does not
 * keep it (legacy): the initiation's slot, and with it the timelock, then comes from the transaction
 * that made it. `rentSponsor` is who gets the account's rent back on close.
 */
export interface StoredSwap {
  address: PublicKey;
  expirySlot: bigint;
  redeemer: PublicKey;
  refundee: PublicKey;
  rentSponsor: PublicKey;
  swapAmount: bigint;
  timelock: bigint | null;
}

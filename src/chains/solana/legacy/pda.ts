/**
 * Program addresses of the legacy HTLC programs (pure). The swap address commits only to the initiator
 * and the secret hash: redeemer, amount and expiry are in the account's data, never in its address.
 */
import { PublicKey } from "@solana/web3.js";
import type { ProgramAddress } from "../pda.js";

const SWAP_ACCOUNT_SEED = new TextEncoder().encode("swap_account");

function find(seeds: Uint8Array[], programId: PublicKey): ProgramAddress {
  const [address, bump] = PublicKey.findProgramAddressSync(seeds, programId);
  return { address, bump };
}

function hashSeed(secretHash: Uint8Array): Uint8Array {
  if (secretHash.length !== 32) throw new RangeError(`secretHash must be 32 bytes, got ${secretHash.length}`);
  return secretHash;
}

/** Legacy native program: the swap account, seeds ["swap_account", initiator, secret_hash]. */
export function legacyNativeSwapAddress(
  programId: PublicKey,
  initiator: PublicKey,
  secretHash: Uint8Array,
): ProgramAddress {
  return find([SWAP_ACCOUNT_SEED, initiator.toBytes(), hashSeed(secretHash)], programId);
}

/** Legacy SPL program: the swap data account, seeds [initiator, secret_hash] (no mint). */
export function legacySplSwapAddress(
  programId: PublicKey,
  initiator: PublicKey,
  secretHash: Uint8Array,
): ProgramAddress {
  return find([initiator.toBytes(), hashSeed(secretHash)], programId);
}

/** Program addresses of the HTLC programs (pure: no RPC). */
import { PublicKey } from "@solana/web3.js";
import { BorshWriter } from "./borsh.js";
import type { SwapTerms } from "./swap-terms.js";

export interface ProgramAddress {
  address: PublicKey;
  bump: number;
}

function find(seeds: Uint8Array[], programId: PublicKey): ProgramAddress {
  const [address, bump] = PublicKey.findProgramAddressSync(seeds, programId);
  return { address, bump };
}

function u64Seed(value: bigint, field: string): Uint8Array {
  return new BorshWriter().u64(value, field).toBytes();
}

function termSeeds(terms: SwapTerms): Uint8Array[] {
  if (terms.secretHash.length !== 32)
    throw new RangeError(`secretHash must be 32 bytes, got ${terms.secretHash.length}`);
  return [
    terms.redeemer.toBytes(),
    terms.refundee.toBytes(),
    terms.secretHash,
    u64Seed(terms.swapAmount, "swapAmount"),
    u64Seed(terms.timelock, "timelock"),
  ];
}

/** Native program: the swap account, seeds [redeemer, refundee, secret_hash, amount LE, timelock LE]. */
export function nativeSwapAddress(programId: PublicKey, terms: SwapTerms): ProgramAddress {
  return find(termSeeds(terms), programId);
}

/** SPL program: the swap data account, seeds [mint, redeemer, refundee, secret_hash, amount LE, timelock LE]. */
export function splSwapAddress(programId: PublicKey, mint: PublicKey, terms: SwapTerms): ProgramAddress {
  return find([mint.toBytes(), ...termSeeds(terms)], programId);
}

/** SPL program: the identity address (seeds []) that owns every vault and signs transfers out of them. */
export function splIdentityAddress(programId: PublicKey): ProgramAddress {
  return find([], programId);
}

/** SPL program: the vault of one mint, the token account at seeds [mint]. */
export function splVaultAddress(programId: PublicKey, mint: PublicKey): ProgramAddress {
  return find([mint.toBytes()], programId);
}

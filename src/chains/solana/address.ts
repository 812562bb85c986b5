/** Solana addresses as text: base58 of 32 bytes, compared exactly (base58 is case-sensitive). */
import { PublicKey } from "@solana/web3.js";
import { base58Decode } from "./base58.js";

/** The problem with a text meant as a Solana address, or null when it is one. */
export function solanaAddressProblem(value: string): string | null {
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(value);
  } catch {
    return "is not base58";
  }
  return bytes.length === 32 ? null : `decodes to ${bytes.length} bytes, not the 32 of a Solana address`;
}

export class SolanaAddressError extends Error {
  constructor(what: string, value: string, problem: string) {
    super(`${what} ${JSON.stringify(value)} ${problem}`);
    this.name = "SolanaAddressError";
  }
}

/** The public key a text names; throws SolanaAddressError naming `what` when it names none. */
export function solanaAddress(value: string, what: string): PublicKey {
  const problem = solanaAddressProblem(value);
  if (problem !== null) throw new SolanaAddressError(what, value, problem);
  return new PublicKey(value);
}

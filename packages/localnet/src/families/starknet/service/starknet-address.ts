/** Starknet addresses as the service prints them: `0x` and 64 lower-case hex digits (docs/service-api.md). */
import { addressHex, parseFelt } from "htlc-solver/chains/starknet/felt.js";

/** What is wrong with a Starknet address (ends a sentence naming it), or null. */
export function starknetAddressProblem(address: string): string | null {
  try {
    return parseFelt(address, "address") === 0n ? "is the zero address" : null;
  } catch {
    return "is not a Starknet address (0x-prefixed hex below the field's prime)";
  }
}

/** The one form an address takes in order records and comparisons. */
export function starknetAddress(address: string): string {
  return addressHex(parseFelt(address, "address"));
}

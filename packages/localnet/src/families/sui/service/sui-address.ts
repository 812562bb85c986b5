/** Sui addresses and object ids as the service prints them: `0x` and 64 lower-case hex digits. */
import { isValidSuiAddress, normalizeSuiAddress } from "@mysten/sui/utils";

const ZERO = normalizeSuiAddress("0x0");

/**
 * What is wrong with a Sui address (ends a sentence naming it), or null. Only the full 64-digit form is
 * taken: a short one (`0x2`) names a system object, never an account or a registry of this service.
 */
export function suiAddressProblem(address: string): string | null {
  if (!/^0x[0-9a-fA-F]{64}$/.test(address) || !isValidSuiAddress(address))
    return "is not a Sui address (0x and 64 hex)";
  return normalizeSuiAddress(address) === ZERO ? "is the zero address" : null;
}

/** The one form an address takes in order records and comparisons. */
export function suiAddress(address: string): string {
  return normalizeSuiAddress(address);
}

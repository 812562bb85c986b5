/**
 * From an order side (`HtlcParams`) to the Solana swap it describes: the HTLC's terms, the swap account
 * they seed (the account is at the program address of its own terms, so reading that address is the
 * check that a swap with exactly these terms exists), and the API's swap id.
 */
import { createHash } from "node:crypto";
import type { PublicKey } from "@solana/web3.js";
import type { HtlcParams } from "../chain.js";
import { solanaAddress } from "./address.js";
import type { SolanaAsset } from "./assets.js";
import { nativeSwapAddress, splSwapAddress } from "./pda.js";
import type { SwapTerms } from "./swap-terms.js";

export class SolanaParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SolanaParamsError";
  }
}

export function hexBytes(hex: string, length: number, what: string): Uint8Array {
  const bare = hex.toLowerCase().replace(/^0x/, "");
  if (!/^[0-9a-f]*$/.test(bare) || bare.length !== length * 2) {
    throw new SolanaParamsError(`${what} must be ${length} bytes of hex, got ${JSON.stringify(hex)}`);
  }
  return new Uint8Array(Buffer.from(bare, "hex"));
}

/** The HTLC terms of an order side: the initiator refunds (the program's refundee). */
export function swapTermsOf(params: HtlcParams): SwapTerms {
  return {
    redeemer: solanaAddress(params.redeemer, `redeemer of the swap on ${params.chain}`),
    refundee: solanaAddress(params.initiator, `initiator of the swap on ${params.chain}`),
    secretHash: hexBytes(params.secretHash, 32, "secret hash"),
    swapAmount: params.amount,
    timelock: params.timelock,
  };
}

/** The swap account (native) or swap data account (SPL) of these terms. */
export function swapAccountOf(asset: SolanaAsset, terms: SwapTerms): PublicKey {
  return asset.mint === null
    ? nativeSwapAddress(asset.programId, terms).address
    : splSwapAddress(asset.programId, asset.mint, terms).address;
}

/** The secret's hash check the programs make: sha256(secret) equals the stored hash. */
export function secretMatches(secret: Uint8Array, secretHash: Uint8Array): boolean {
  return Buffer.from(createHash("sha256").update(secret).digest()).equals(Buffer.from(secretHash));
}

/** The service API's Solana swap_id. */
import { createHash } from "node:crypto";
import type { PublicKey } from "@solana/web3.js";

/**
 * sha256(chain_id as 32-byte big-endian ‖ secret_hash ‖ initiator public key), as lowercase hex without
 * 0x. It is neither the swap account's address nor the secret hash; published test-network orders
 * reproduce with chain_id 103.
 */
export function solanaSwapId(chainId: bigint, secretHash: Uint8Array, initiator: PublicKey): string {
  if (chainId < 0n || chainId >= 1n << 256n)
    throw new RangeError(`chainId must fit in 32 bytes, got ${chainId}`);
  if (secretHash.length !== 32) throw new RangeError(`secretHash must be 32 bytes, got ${secretHash.length}`);
  const chain = Buffer.from(chainId.toString(16).padStart(64, "0"), "hex");
  return createHash("sha256").update(chain).update(secretHash).update(initiator.toBytes()).digest("hex");
}

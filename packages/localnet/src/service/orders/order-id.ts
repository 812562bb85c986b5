import { createHash } from "node:crypto";

/**
 * The API's order id: sha256 over the UTF-8 text `<source_swap_id>:<destination_swap_id>:<nonce>`,
 * 64 hex without 0x. Separators keep variable-length ids (Bitcoin addresses) unambiguous.
 */
export function serviceOrderId(sourceSwapId: string, destinationSwapId: string, nonce: string): string {
  return createHash("sha256").update(`${sourceSwapId}:${destinationSwapId}:${nonce}`, "utf8").digest("hex");
}

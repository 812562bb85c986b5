/**
 * The secret of an order as far as the solver knows it: from the destination chain's redeem first, then
 * from the order. Only a preimage of the order's secret hash counts; anything else the service says is
 * ignored.
 */
import { createHash } from "node:crypto";
import type { PlanInput } from "./plan-types.js";

export function knownSecret(input: Pick<PlanInput, "destination" | "order" | "source">): string | null {
  const candidates = [
    input.destination.state?.secret,
    input.order.destination_swap.secret,
    input.order.source_swap.secret,
  ];
  for (const candidate of candidates) {
    if (candidate && secretMatches(candidate, input.source.params.secretHash)) return candidate.toLowerCase();
  }
  return null;
}

function secretMatches(secret: string, secretHash: string): boolean {
  if (!/^([0-9a-f]{2})+$/i.test(secret)) return false;
  return createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex") === secretHash.toLowerCase();
}

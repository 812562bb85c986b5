import type { ActionRequest } from "../../src/chains/chain.js";
import type { ActionRow, ExclusiveClaim, Journal } from "../../src/journal/journal.js";

/** A source for a test order's fill or instant refund: one of its own, so orders never collide. */
export function ownSource(request: ActionRequest): ExclusiveClaim {
  return {
    backing: { chain: "source_chain", swapId: `source-of-${request.orderId}` },
    terms: { source: request.params, destination: request.params, refundAddress: "" },
    lockIds: [],
  };
}

/** Claims an action that the journal must accept; committing kinds commit against their own source. */
export function claimOk(
  journal: Journal,
  request: ActionRequest,
  nowMs = Date.now(),
  exclusive: ExclusiveClaim | undefined = request.kind === "fill" || request.kind === "instant_refund"
    ? ownSource(request)
    : undefined,
): { action: ActionRow; created: boolean } {
  const result = journal.claimAction(request, nowMs, exclusive);
  if (!result.ok) throw new Error(`claim of ${request.kind} refused: ${result.reason} (${result.detail})`);
  return result;
}

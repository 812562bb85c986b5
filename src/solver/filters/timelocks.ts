import type { Decision, PlanInput } from "../plan-types.js";

/**
 * After our fill, the user may redeem the destination until its timelock ends; we then need time to redeem
 * the source. So the source must outlast the destination by the margin, in wall-clock time, counting the
 * source at its fastest block rate and the destination at its slowest.
 */
export function checkTimelocks({
  source,
  destination,
  safety,
  maxDestinationTimelock,
}: PlanInput): Decision | null {
  const destinationTimelock = destination.params.timelock;
  if (destinationTimelock <= 0n || destinationTimelock > maxDestinationTimelock) {
    return {
      outcome: "refuse",
      reason: "destination_timelock_out_of_range",
      detail: `destination timelock ${destinationTimelock} is outside 1..${maxDestinationTimelock}`,
    };
  }
  const refundableAt = source.state?.refundableAtHeight ?? null;
  if (refundableAt === null) return null;
  const sourceBlocksLeft = refundableAt - source.tipHeight - 1n;
  const sourceMsLeft = sourceBlocksLeft * BigInt(source.minBlockTimeMs);
  const destinationMs = destinationTimelock * BigInt(destination.maxBlockTimeMs);
  const neededMs = destinationMs + BigInt(safety.timelockMarginMs);
  if (sourceMsLeft < neededMs) {
    return {
      outcome: "refuse",
      reason: "source_timelock_too_short",
      detail: `source can be refunded in ${sourceBlocksLeft} blocks (>= ${sourceMsLeft} ms); destination lock (<= ${destinationMs} ms) plus margin ${safety.timelockMarginMs} ms needs ${neededMs} ms`,
    };
  }
  return null;
}

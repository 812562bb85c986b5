import type { Decision, PlanInput } from "../plan-types.js";
import { sourceCover } from "../source-cover.js";

/**
 * After our fill, the user may redeem the destination until its timelock ends; we then need time to redeem
 * the source. So the source must outlast the destination by the margin, in wall-clock time, counting the
 * source at its fastest block rate (from the earliest refund height among the locks we rely on, less the
 * time passed since the tip was read) and the destination at its slowest.
 */
export function checkTimelocks(input: PlanInput): Decision | null {
  const { source, destination, safety, maxDestinationTimelock, nowMs } = input;
  const destinationTimelock = destination.params.timelock;
  if (destinationTimelock <= 0n || destinationTimelock > maxDestinationTimelock) {
    return {
      outcome: "refuse",
      reason: "destination_timelock_out_of_range",
      detail: `destination timelock ${destinationTimelock} is outside 1..${maxDestinationTimelock}`,
    };
  }
  const refundableAt = sourceCover(input)?.refundableAtHeight ?? null;
  if (refundableAt === null) return null;
  const sourceBlocksLeft = refundableAt - source.tipHeight - 1n;
  const elapsedMs = BigInt(Math.max(0, nowMs - source.readAtMs));
  const sourceMsLeft = sourceBlocksLeft * BigInt(source.minBlockTimeMs) - elapsedMs;
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

/**
 * The fee that protects the inventory: a destination asset's curve maps its inventory ratio (holding over
 * target, in bps) to extra fee bps, piecewise linear between the configured points and flat beyond them.
 * Integer arithmetic only; each rounding widens the fee, never narrows it.
 */
import type { InventoryCurve } from "../config/types.js";

const BPS = 10_000n;

/** Ceiling of a / b for b > 0, whatever the sign of a. */
function ceilDiv(a: bigint, b: bigint): bigint {
  return a >= 0n ? (a + b - 1n) / b : -(-a / b);
}

/** Inventory as bps of the target, rounded down (a lower ratio never means a narrower fee). */
export function inventoryRatioBps(curve: InventoryCurve, holding: bigint): bigint {
  if (holding <= 0n) return 0n;
  return (holding * BPS) / curve.target;
}

/** Extra fee bps at `holding` smallest units of the asset. */
export function curveExtraBps(curve: InventoryCurve, holding: bigint): number {
  const ratio = inventoryRatioBps(curve, holding);
  const points = curve.points;
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return 0;
  if (ratio <= BigInt(first.ratioBps)) return first.extraBps;
  if (ratio >= BigInt(last.ratioBps)) return last.extraBps;
  for (let i = 1; i < points.length; i++) {
    const right = points[i];
    const left = points[i - 1];
    if (right === undefined || left === undefined || ratio > BigInt(right.ratioBps)) continue;
    const x0 = BigInt(left.ratioBps);
    const dy = BigInt(right.extraBps - left.extraBps);
    return left.extraBps + Number(ceilDiv(dy * (ratio - x0), BigInt(right.ratioBps) - x0));
  }
  return last.extraBps;
}

/** The strategy's fee plus the curve's extra, kept within 0..10000 bps. */
export function effectiveFeeBps(feeBps: number, extraBps: number): number {
  return Math.min(10_000, Math.max(0, feeBps + extraBps));
}

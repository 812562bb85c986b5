/**
 * Inventory curves per destination asset: a target and at least two points (inventory ratio in bps →
 * extra fee in bps), sorted by ratio, so the curve is a function the solver can interpolate.
 */
import type { InventoryCurve } from "../types.js";
import { settingsObject, whenObject } from "../zod/objects.js";
import { amount, assetMap, integer, list } from "../zod/values.js";

const MAX_BPS = 10_000;
/** Ten times the target is far beyond any useful inventory ratio. */
const MAX_RATIO_BPS = 100 * MAX_BPS;

const curvePoint = settingsObject(
  { ratioBps: integer(0, MAX_RATIO_BPS), extraBps: integer(-MAX_BPS, MAX_BPS) },
  "a curve point",
);

const curve = settingsObject(
  { target: amount({ min: 1n }), points: list(curvePoint, true) },
  "an inventory curve",
).superRefine(({ points }, ctx) => {
  if (!Array.isArray(points)) return;
  if (points.length === 1)
    ctx.addIssue({ code: "custom", path: ["points"], message: "needs at least two points" });
  points.forEach((point, index) => {
    const previous = points[index - 1];
    if (previous !== undefined && point.ratioBps <= previous.ratioBps) {
      const message = `${point.ratioBps} must be above the previous point's ${previous.ratioBps}`;
      ctx.addIssue({ code: "custom", path: ["points", index, "ratioBps"], message });
    }
  });
}, whenObject);

export const inventoryCurvesSchema = (assetIds: ReadonlySet<string>) =>
  assetMap<InventoryCurve>(curve, { target: 0n, points: [] }, assetIds, "<asset id>: curve");

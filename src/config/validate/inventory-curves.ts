/**
 * Inventory curves per destination asset: a target and at least two points (inventory ratio in bps →
 * extra fee in bps), sorted by ratio, so the curve is a function the solver can interpolate.
 */
import type { CurvePoint, InventoryCurve } from "../types.js";
import type { Problems } from "../errors.js";
import { describeValue } from "./checks.js";
import { fieldsOf, isRawObject } from "./fields.js";

export const CURVE_KEYS = ["target", "points"];
export const CURVE_POINT_KEYS = ["ratioBps", "extraBps"];
const MAX_BPS = 10_000;
/** Ten times the target is far beyond any useful inventory ratio. */
const MAX_RATIO_BPS = 100 * MAX_BPS;

export function readInventoryCurves(
  problems: Problems,
  raw: unknown,
  assetIds: ReadonlySet<string>,
): Record<string, InventoryCurve> {
  const curves: Record<string, InventoryCurve> = {};
  if (!isRawObject(raw)) {
    problems.add("inventoryCurves", `${describeValue(raw)} must be an object of <asset id>: curve`);
    return curves;
  }
  for (const [id, value] of Object.entries(raw)) {
    const path = `inventoryCurves["${id}"]`;
    if (!assetIds.has(id)) {
      problems.add(path, "is not a configured asset (<chain>:<symbol> of chains[].assets)");
      continue;
    }
    const f = fieldsOf(problems, value, path, "an inventory curve");
    if (f === null) continue;
    f.onlyKeys(CURVE_KEYS, "an inventory curve");
    const target = f.amount("target", { min: 1n });
    const points: CurvePoint[] = [];
    const rawPoints = f.array("points", true);
    if (rawPoints.length === 1) f.problem("points", "needs at least two points");
    rawPoints.forEach((rawPoint, index) => {
      const p = fieldsOf(problems, rawPoint, `${f.at("points")}[${index}]`, "a curve point");
      if (p === null) return;
      p.onlyKeys(CURVE_POINT_KEYS, "a curve point");
      const point = {
        ratioBps: p.integer("ratioBps", 0, MAX_RATIO_BPS),
        extraBps: p.integer("extraBps", -MAX_BPS, MAX_BPS),
      };
      const previous = points[points.length - 1];
      if (previous !== undefined && point.ratioBps <= previous.ratioBps) {
        p.problem("ratioBps", `${point.ratioBps} must be above the previous point's ${previous.ratioBps}`);
      }
      points.push(point);
    });
    curves[id] = { target, points };
  }
  return curves;
}

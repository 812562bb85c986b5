/**
 * The crash loop as a long run: `npm run chaos` (defaults: 20 swaps of every family; up to 50 SIGKILLs
 * while swaps are under way, each 2 to 12 s after the solver started; 30 % of RPC calls failing), or
 * `npm run chaos -- --swaps N --kills K --fail-rate R --seed S --kill-after LOW-HIGH` (seconds). Exits 1
 * when any swap did not complete or any loss shows.
 */
import { parseArgs } from "node:util";
import { runChaos } from "./chaos.js";
import { describeReport } from "./report.js";

const { values } = parseArgs({
  options: {
    swaps: { type: "string", default: "20" },
    kills: { type: "string", default: "50" },
    "fail-rate": { type: "string", default: "0.3" },
    seed: { type: "string", default: "7" },
    "kill-after": { type: "string", default: "2-12" },
  },
});

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got "${text}"`);
  return value;
}

/** `LOW-HIGH` seconds as a millisecond range; a life long enough for the Bitcoin index's walk needs tens. */
function secondsRange(text: string): [number, number] {
  const match = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(text);
  const [low, high] = [Number(match?.[1]), Number(match?.[2])];
  if (match === null || !(low <= high))
    throw new Error(`--kill-after must be LOW-HIGH seconds with LOW <= HIGH, got "${text}"`);
  return [low * 1_000, high * 1_000];
}

const failRate = Number(values["fail-rate"]);
if (!(failRate >= 0 && failRate < 1))
  throw new Error(`--fail-rate must be in [0, 1), got "${values["fail-rate"]}"`);
const swaps = positive("swaps", values.swaps);
const kills = positive("kills", values.kills);
const report = await runChaos({
  swaps,
  kills,
  failRate,
  seed: positive("seed", values.seed),
  killAfterMs: secondsRange(values["kill-after"]),
  swapSpacingMs: 3_000,
  timeoutMs: 60 * 60_000,
  log: (line) => console.log(`  ${line}`),
});
const { lines, ok } = describeReport(report);
console.log(lines.join("\n"));
process.exit(ok ? 0 : 1);

/**
 * The crash loop as a long run: `npm run chaos` (defaults: 20 swaps of every family, 50 SIGKILLs, 30 % of RPC
 * calls failing), or `npm run chaos -- --swaps N --kills K --fail-rate R --seed S`. Exits 1 when any swap
 * did not complete or any loss shows.
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
  },
});

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got "${text}"`);
  return value;
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
  killAfterMs: [2_000, 12_000],
  swapSpacingMs: 3_000,
  timeoutMs: 60 * 60_000,
  log: (line) => console.log(`  ${line}`),
});
const { lines, ok } = describeReport(report);
console.log(lines.join("\n"));
process.exit(ok ? 0 : 1);

/**
 * Does a flood of quote requests slow the solver's fills? Each run is a pair on fresh localnets: N swaps
 * opened at once with the orders created first, filled once without and once under a flood of requests
 * at the solver's quote endpoint from its own process, the solver keeping its default quote limits.
 * Prints each run's figures and the medians of both arms side by side.
 *
 *   npm run bench:flood -- [--orders N] [--runs K] [--connections C] [--unsigned] [--service-process] [--bitcoin-process]
 *
 * Signed (the default), the flood carries the service's secret: every request passes the signature and
 * meets the rate limit, which answers most 429. Unsigned, every request is answered 401.
 */
import { parseArgs } from "node:util";
import { DEFAULT_QUOTE_LIMITS } from "../../src/pricing/quote-guard.js";
import { runLoad, type LoadOptions } from "./load/run-load.js";
import { floodComparisonText, runText, type FloodPair } from "./load/report.js";

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer, got ${value}`);
  return parsed;
}

const { values } = parseArgs({
  options: {
    orders: { type: "string" },
    runs: { type: "string" },
    connections: { type: "string" },
    unsigned: { type: "boolean" },
    "service-process": { type: "boolean" },
    "bitcoin-process": { type: "boolean" },
  },
});
const orders = positiveInt(values.orders, "orders", 40);
const runs = positiveInt(values.runs, "runs", 3);
const connections = positiveInt(values.connections, "connections", 64);
const signed = values.unsigned !== true;

const common: LoadOptions = {
  orders,
  // The bursts before the swaps are the load benchmark's; here a token few keep both arms alike.
  quoteBurst: 8,
  quoteLimits: DEFAULT_QUOTE_LIMITS,
  phasedOpening: true,
  serviceProcess: values["service-process"] === true,
  bitcoinProcess: values["bitcoin-process"] === true,
};

const pairs: FloodPair[] = [];
for (let run = 1; run <= runs; run++) {
  const arms: Partial<FloodPair> = {};
  // The arms take turns going first, so that whatever the machine does over a run weighs on both.
  const order: ("without" | "with")[] = run % 2 === 1 ? ["without", "with"] : ["with", "without"];
  for (const arm of order) {
    console.log(`\nrun ${run} of ${runs}, ${arm} a quote flood: ${orders} orders`);
    const started = Date.now();
    const figures = await runLoad({
      ...common,
      quoteFlood: arm === "with" ? { connections, signed } : null,
      print: (line) => console.log(`  ${line}`),
    });
    for (const line of runText(figures)) console.log(`  ${line}`);
    console.log(`  run took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    arms[arm] = figures;
  }
  if (arms.without !== undefined && arms.with !== undefined)
    pairs.push({ without: arms.without, with: arms.with });
}
console.log("");
for (const line of floodComparisonText(pairs)) console.log(line);

/**
 * The load benchmark: N concurrent swaps driven through the local service as users would, against the
 * solver running as its own process behind counting RPC proxies. Prints each run's figures and the
 * medians over runs; the machine is shared and noisy, so compare medians and ratios between runs.
 *
 *   npm run bench:load -- [--orders N] [--runs K] [--users U] [--quote-burst Q] [--timeout-s S] [--keep] [--service-process] [--bitcoin-process] [--shared-proxies]
 *
 * The solver runs as its own process, and with --service-process the local service too. BENCH_SOLVER_NODE_ARGS
 * and BENCH_SERVICE_NODE_ARGS go to their node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile one).
 */
import { parseArgs } from "node:util";
import { defaultUsers, runLoad } from "./load/run-load.js";
import { mediansText, runText } from "./load/report.js";
import type { LoadFigures } from "./load/figures.js";

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
    users: { type: "string" },
    "quote-burst": { type: "string" },
    "timeout-s": { type: "string" },
    keep: { type: "boolean" },
    "service-process": { type: "boolean" },
    "bitcoin-process": { type: "boolean" },
    "shared-proxies": { type: "boolean" },
  },
});
const orders = positiveInt(values.orders, "orders", 1_000);
const runs = positiveInt(values.runs, "runs", 1);
const users = positiveInt(values.users, "users", defaultUsers(orders));
const quoteBurst = positiveInt(values["quote-burst"], "quote-burst", 1_000);
const timeoutS =
  values["timeout-s"] === undefined ? undefined : positiveInt(values["timeout-s"], "timeout-s", 1);

const results: LoadFigures[] = [];
for (let run = 1; run <= runs; run++) {
  console.log(`\nrun ${run} of ${runs}: ${orders} orders`);
  const started = Date.now();
  const figures = await runLoad({
    orders,
    users,
    quoteBurst,
    ...(timeoutS === undefined ? {} : { timeoutMs: timeoutS * 1000 }),
    keepDir: values.keep === true,
    serviceProcess: values["service-process"] === true,
    bitcoinProcess: values["bitcoin-process"] === true,
    sharedProxies: values["shared-proxies"] === true,
    print: (line) => console.log(`  ${line}`),
  });
  for (const line of runText(figures)) console.log(`  ${line}`);
  console.log(`  run took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  results.push(figures);
}
console.log("");
for (const line of mediansText(results)) console.log(line);

/**
 * Runs the fault proxy in front of a node from the command line, e.g. for a benchmark or by hand:
 *
 *   npx tsx test/support/fault-proxy-cli.ts --upstream http://127.0.0.1:8545 --port 9545 \
 *     --seed 7 --fail-rate 0.3 --faults http500,http429,rpcError --delay-ms 20
 *
 * It prints its URL and control URL, and its counts when stopped (Ctrl-C). While it runs, change it
 * with `curl -X POST <control> -d '{"failRate":0}'`, freeze the head with `curl -X POST <control>/freeze`
 * (optionally `-d '{"height":120}'`), thaw it with `/thaw`, zero the counts with `/reset`, and read
 * config and counts with `curl <control>`.
 */
import { parseArgs } from "node:util";
import { CONTROL_PATH, FAULT_KINDS, FaultProxy, type FaultConfig, type FaultKind } from "./fault-proxy.js";

const { values } = parseArgs({
  options: {
    upstream: { type: "string" },
    port: { type: "string", default: "0" },
    seed: { type: "string", default: "1" },
    "fail-rate": { type: "string" },
    faults: { type: "string" },
    methods: { type: "string" },
    "except-methods": { type: "string" },
    "delay-ms": { type: "string" },
    "jitter-ms": { type: "string" },
    "retry-after": { type: "string" },
    "hang-ms": { type: "string" },
    "stale-height": { type: "string" },
    "drop-sends": { type: "boolean" },
  },
});

function fail(message: string): never {
  console.error(`fault-proxy: ${message}`);
  process.exit(2);
}

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) fail(`--${name} ${text} is not a number`);
  return value;
}

const list = (text: string | undefined) =>
  text
    ?.split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

function faultWeights(text: string | undefined): Partial<Record<FaultKind, number>> | undefined {
  const kinds = list(text);
  if (kinds === undefined) return undefined;
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind))
      fail(`unknown fault ${kind}; one of ${FAULT_KINDS.join(", ")}`);
  }
  return Object.fromEntries(kinds.map((k) => [k, 1]));
}

if (values.upstream === undefined) fail("--upstream <node URL> is required");
const config: Partial<FaultConfig> = {};
const failRate = number("fail-rate", values["fail-rate"]);
if (failRate !== undefined) config.failRate = failRate;
const faults = faultWeights(values.faults);
if (faults !== undefined) config.faults = faults;
const methods = list(values.methods);
if (methods !== undefined) config.methods = methods;
const exceptMethods = list(values["except-methods"]);
if (exceptMethods !== undefined) config.exceptMethods = exceptMethods;
const delayMs = number("delay-ms", values["delay-ms"]);
if (delayMs !== undefined) config.delayMs = delayMs;
const jitterMs = number("jitter-ms", values["jitter-ms"]);
if (jitterMs !== undefined) config.jitterMs = jitterMs;
const retryAfter = number("retry-after", values["retry-after"]);
if (retryAfter !== undefined) config.retryAfter = { seconds: retryAfter, form: "seconds" };
const hangMs = number("hang-ms", values["hang-ms"]);
if (hangMs !== undefined) config.hangMs = hangMs;
const staleHeight = number("stale-height", values["stale-height"]);
if (staleHeight !== undefined) config.staleHeight = staleHeight;
if (values["drop-sends"] === true) config.dropSends = true;

const proxy = new FaultProxy(values.upstream, { seed: number("seed", values.seed) ?? 1, config });
await proxy.start(number("port", values.port) ?? 0);
console.log(JSON.stringify({ url: proxy.url, control: `${proxy.url}${CONTROL_PATH}`, config: proxy.config }));

const stop = async () => {
  await proxy.stop();
  console.log(JSON.stringify({ counts: proxy.counts(), totals: proxy.totals() }, null, 2));
  process.exit(0);
};
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());

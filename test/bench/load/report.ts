/** The load benchmark's figures as text: one run, and the medians over several runs. */
import type { FloodFigures, LoadFigures, QuoteFigures } from "./figures.js";
import { median, type Spread } from "./stats.js";

const fixed = (value: number | null, digits = 1): string => (value === null ? "n/a" : value.toFixed(digits));

function spreadText(s: Spread, digits: number, unit = ""): string {
  return `p50 ${fixed(s.p50, digits)}${unit}, p99 ${fixed(s.p99, digits)}${unit}, max ${fixed(s.max, digits)}${unit} (n=${s.count})`;
}

function quoteText(q: QuoteFigures): string {
  return (
    `${q.answered}/${q.requests} answered, ${q.timeouts} timed out, ${q.refused} refused; ` +
    `latency p50 ${fixed(q.latencyMs.p50, 0)} ms, p99 ${fixed(q.latencyMs.p99, 0)} ms`
  );
}

function floodText(flood: FloodFigures): string {
  const statuses = Object.entries(flood.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status} x ${count}`)
    .join(", ");
  return (
    `quote flood at the solver's endpoint while the swaps filled: ${flood.connections} connections, ` +
    `${flood.signed ? "signed with the service's secret" : "unsigned"}; ${flood.sent} requests in ` +
    `${fixed(flood.seconds, 0)} s, ${fixed(flood.perSecond, 0)} answered a second (${statuses}); ` +
    `the flood's own process used ${fixed(flood.floodCpuMs / 1000)} s of CPU`
  );
}

export function runText(f: LoadFigures): string[] {
  const lines = [
    `completed ${f.completed}/${f.orders} (created ${f.created}, initiated ${f.initiated}; ${f.users} users)`,
    `fill latency after the source's confirmations, source blocks: ${spreadText(f.fillLatencyBlocks, 0)}`,
    `fill latency after the source's confirmations, ms: ${spreadText(f.fillLatencyMs, 0)}`,
    ...(f.flood === null ? [] : [floodText(f.flood)]),
    ...f.fillLatencyByKind.map((k) => `  ${k.label}: ${spreadText(k.blocks, 0)}`),
    `user initiate to source redeem: ${spreadText(f.initiateToRedeemS, 1, " s")}`,
    `quote burst through the service: ${quoteText(f.burst)}; solver CPU ${fixed(f.burstCpuMsPerQuote, 2)} ms per quote; ` +
      `p99 inside the solver's quote handler <= ${fixed(f.burstSolverP99Ms, 1)} ms`,
    `quote burst straight at the solver's endpoint (the service's pooled client), the first after start: ${quoteText(f.coldEndpointBurst)}`,
    `quote burst straight at the solver's endpoint, the next (kept connections): ${quoteText(f.endpointBurst)}`,
    `the swaps' own quotes: ${quoteText(f.orderQuotes)}`,
    `order creations: ${f.creations.created} created, ${f.creations.badGateway} failed 502, ${f.creations.failed} failed otherwise; ` +
      `p99 ${fixed(f.creations.latencyMs.p99, 0)} ms`,
    ...f.creations.failures.map((failure) => `  ${failure.count} x ${failure.reason}`),
  ];
  for (const chain of f.rpc) {
    const methods = chain.topMethods.map((m) => `${m.method} ${m.calls}`).join(", ");
    lines.push(
      `RPC ${chain.chain}: ${chain.calls} calls, ${fixed(chain.perCompletedOrder)} per completed order, ` +
        `${fixed(chain.perSide)} per order side there (${chain.sides} sides); ${methods}`,
    );
  }
  lines.push(
    `solver CPU: ${fixed(f.solverCpuMs / 1000)} s, ${fixed(f.cpuMsPerCompletedOrder)} ms per completed order, ` +
      `${fixed(f.cpuMsPerOrderRound, 2)} ms per open order per round (${f.rounds} rounds); RSS ${fixed(f.solverRssMiB, 0)} MiB`,
    `CPU while the swaps ran (${fixed(f.cpuShares.wallMs / 1000, 0)} s): solver ${percent(f.solverCores)} of a core, ` +
      `the benchmark's process (users, Bitcoin node, proxies${f.serviceCpuMs === null ? ", local service" : ""}) ` +
      `${percent(f.cpuShares.benchProcessCores)} of a core, machine ${percent(f.cpuShares.machineBusy)} busy over ` +
      `${f.cpuShares.machineCores} cores; the benchmark's event loop held at most ${fixed(f.cpuShares.benchLoopDelayMaxMs, 0)} ms`,
    `local service CPU while the swaps ran: ${f.serviceCpuMs === null ? "not measured (in the benchmark's process)" : `${fixed(f.serviceCpuMs / 1000)} s`}`,
    `journal: ${fixed(f.journalBytes / 1024, 0)} KiB, ${fixed(f.completed === 0 ? null : f.journalBytes / 1024 / f.completed, 2)} KiB per completed order`,
  );
  for (const problem of f.problems) lines.push(`problem: ${problem}`);
  return lines;
}

const percentOrNull = (share: number | null): number | null => (share === null ? null : share * 100);

/** Medians over runs of the headline figures, each with the values of every run. */
export function mediansText(runs: readonly LoadFigures[]): string[] {
  const row = (label: string, pick: (f: LoadFigures) => number | null, digits = 1): string => {
    const values = runs.map(pick);
    return `${label.padEnd(44)} ${fixed(median(values), digits).padStart(9)}   [${values.map((v) => fixed(v, digits)).join(", ")}]`;
  };
  const chains = runs[0]?.rpc.map((c) => c.chain) ?? [];
  return [
    `medians over ${runs.length} run(s) of ${runs[0]?.orders ?? 0} orders   (each run's value in brackets)`,
    row("completed", (f) => f.completed, 0),
    row("fill latency p50, source blocks", (f) => f.fillLatencyBlocks.p50, 0),
    row("fill latency p99, source blocks", (f) => f.fillLatencyBlocks.p99, 0),
    row("fill latency max, source blocks", (f) => f.fillLatencyBlocks.max, 0),
    row("fill latency p50, ms", (f) => f.fillLatencyMs.p50, 0),
    row("fill latency p99, ms", (f) => f.fillLatencyMs.p99, 0),
    row("initiate to source redeem p50, s", (f) => f.initiateToRedeemS.p50),
    row("initiate to source redeem p99, s", (f) => f.initiateToRedeemS.p99),
    row("burst quotes answered", (f) => f.burst.answered, 0),
    row("burst quote p99, ms", (f) => f.burst.latencyMs.p99, 0),
    row("burst quote timeouts", (f) => f.burst.timeouts, 0),
    row("burst quote p99 in the solver's handler, ms (bound)", (f) => f.burstSolverP99Ms, 1),
    row("solver endpoint burst p99, ms", (f) => f.endpointBurst.latencyMs.p99, 0),
    row("solver endpoint first burst p99, ms", (f) => f.coldEndpointBurst.latencyMs.p99, 0),
    row("solver endpoint burst timeouts", (f) => f.endpointBurst.timeouts, 0),
    row("swap quotes answered", (f) => f.orderQuotes.answered, 0),
    row("swap quote p99, ms", (f) => f.orderQuotes.latencyMs.p99, 0),
    row("swap quote timeouts", (f) => f.orderQuotes.timeouts, 0),
    row("swap quotes answered within 3 s, %", (f) => percentOrNull(f.orderQuotes.answeredInTimeShare)),
    row("order creations made within 3 s, %", (f) => percentOrNull(f.creations.createdInTimeShare)),
    row("order creations failed 502", (f) => f.creations.badGateway, 0),
    ...chains.flatMap((chain) => [
      row(
        `RPC calls per completed order, ${chain}`,
        (f) => f.rpc.find((c) => c.chain === chain)?.perCompletedOrder ?? null,
      ),
      row(`RPC calls per order side, ${chain}`, (f) => f.rpc.find((c) => c.chain === chain)?.perSide ?? null),
    ]),
    row("solver CPU ms per completed order", (f) => f.cpuMsPerCompletedOrder),
    row("solver CPU ms per open order per round", (f) => f.cpuMsPerOrderRound, 2),
    row("solver CPU ms per burst quote", (f) => f.burstCpuMsPerQuote, 2),
    row(
      "benchmark process CPU while the swaps ran, % of a core",
      (f) => f.cpuShares.benchProcessCores * 100,
      0,
    ),
    row(
      "machine CPU busy while the swaps ran, %",
      (f) => (f.cpuShares.machineBusy === null ? null : f.cpuShares.machineBusy * 100),
      0,
    ),
    row("benchmark event loop held at most, ms", (f) => f.cpuShares.benchLoopDelayMaxMs, 0),
    row("local service CPU ms per completed order", (f) =>
      f.completed === 0 || f.serviceCpuMs === null ? null : f.serviceCpuMs / f.completed,
    ),
    row(
      "journal KiB per completed order",
      (f) => (f.completed === 0 ? null : f.journalBytes / 1024 / f.completed),
      2,
    ),
  ];
}

/** Each run's pair of runs, without and with a quote flood. */
export interface FloodPair {
  without: LoadFigures;
  with: LoadFigures;
}

/** Medians over pairs of runs of what a quote flood may change: fill latency, and what the flood got. */
export function floodComparisonText(pairs: readonly FloodPair[]): string[] {
  const row = (label: string, pick: (f: LoadFigures) => number | null, digits = 0): string => {
    const cells = (arm: "without" | "with") => {
      const values = pairs.map((p) => pick(p[arm]));
      return { median: fixed(median(values), digits), each: values.map((v) => fixed(v, digits)).join(", ") };
    };
    const without = cells("without");
    const flooded = cells("with");
    return (
      `${label.padEnd(40)} ${without.median.padStart(10)} ${flooded.median.padStart(10)}   ` +
      `[${without.each}] [${flooded.each}]`
    );
  };
  const flood = pairs[0]?.with.flood ?? null;
  const statuses = [...new Set(pairs.flatMap((p) => Object.keys(p.with.flood?.byStatus ?? {})))].sort();
  const byStatusPerSecond = (status: string) => (f: LoadFigures) =>
    f.flood === null || f.flood.seconds === 0 ? null : (f.flood.byStatus[status] ?? 0) / f.flood.seconds;
  return [
    `medians over ${pairs.length} pair(s) of runs of ${pairs[0]?.without.orders ?? 0} orders, without and with a ` +
      `quote flood (${flood === null ? "none" : `${flood.connections} connections, ${flood.signed ? "signed" : "unsigned"}`})`,
    `${"".padEnd(40)} ${"without".padStart(10)} ${"with".padStart(10)}   [each run without] [each run with]`,
    row("completed", (f) => f.completed),
    row("fill latency p50, source blocks", (f) => f.fillLatencyBlocks.p50),
    row("fill latency p99, source blocks", (f) => f.fillLatencyBlocks.p99),
    row("fill latency p50, ms", (f) => f.fillLatencyMs.p50),
    row("fill latency p99, ms", (f) => f.fillLatencyMs.p99),
    row("initiate to source redeem p50, s", (f) => f.initiateToRedeemS.p50, 1),
    row("initiate to source redeem p99, s", (f) => f.initiateToRedeemS.p99, 1),
    row("solver CPU while the swaps ran, s", (f) => f.solverCpuMs / 1000, 1),
    row("solver CPU, % of a core", (f) => f.solverCores * 100),
    row("machine CPU busy, %", (f) =>
      f.cpuShares.machineBusy === null ? null : f.cpuShares.machineBusy * 100,
    ),
    // The benchmark's own process runs the block clock, the users and (by default) the service and the
    // Bitcoin node: a flood that starves it delays what it measures and what the solver waits for.
    row("benchmark process CPU, % of a core", (f) => f.cpuShares.benchProcessCores * 100),
    row("benchmark event loop held at most, ms", (f) => f.cpuShares.benchLoopDelayMaxMs),
    row("flood answers a second", (f) => f.flood?.perSecond ?? null),
    row("flood's own CPU, % of a core", (f) =>
      f.flood === null || f.flood.seconds === 0 ? null : f.flood.floodCpuMs / 10 / f.flood.seconds,
    ),
    ...statuses.map((status) => row(`flood ${status} a second`, byStatusPerSecond(status))),
  ];
}

function percent(share: number | null): string {
  return share === null ? "n/a" : `${(share * 100).toFixed(0)} %`;
}

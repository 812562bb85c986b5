/** What one run of the load benchmark measured, computed from the swaps, the block clock and the counters. */
import type { CpuShares } from "./cpu-window.js";
import type { MethodCounts } from "../../support/fault-proxy.js";
import type { BlockClock } from "./block-clock.js";
import type { FloodCounts, QuoteFloodOptions } from "./quote-flood.js";
import type { TimedQuote } from "./service-calls.js";
import { spread, type Spread } from "./stats.js";
import { chainOfAsset } from "./swap-mix.js";
import type { SwapRecord } from "./swaps.js";

/** How long the service waits for a solver's quote (3 s, live and local): an answer later is none. */
const ANSWER_LIMIT_MS = 3_000;

export interface QuoteFigures {
  requests: number;
  answered: number;
  /** Answered within the service's wait for a solver, as a share of the requests. */
  answeredInTimeShare: number | null;
  timeouts: number;
  refused: number;
  /** Latency of every request, answered or not, ms. */
  latencyMs: Spread;
}

export interface ChainRpcFigures {
  chain: string;
  family: string;
  calls: number;
  /** Completed orders with a side on this chain. */
  sides: number;
  perCompletedOrder: number | null;
  perSide: number | null;
  /** The most called methods, most first. */
  topMethods: { method: string; calls: number }[];
}

/** The flood of quote requests at the solver's endpoint while the swaps filled. */
export interface FloodFigures {
  connections: number;
  signed: boolean;
  seconds: number;
  sent: number;
  /** Answers a second, all statuses. */
  perSecond: number;
  /** Answers by HTTP status (`error`: none came). */
  byStatus: Record<string, number>;
  /** CPU of the flood's own process: on one machine it is taken from everything else. */
  floodCpuMs: number;
}

export interface LoadFigures {
  orders: number;
  users: number;
  created: number;
  initiated: number;
  completed: number;
  /** Blocks of the source chain between the source reaching its confirmations and the fill's block. */
  fillLatencyBlocks: Spread;
  /** The same in time: from the block of the source's confirmation to the fill's block, as first seen. */
  fillLatencyMs: Spread;
  /** The same by kind of swap (its label), to say which swaps set the p99. */
  fillLatencyByKind: { label: string; blocks: Spread }[];
  /** From the user's initiate to the block of the solver's source redeem, seconds. */
  initiateToRedeemS: Spread;
  /** The quotes of the swaps themselves (GET /v2/quote, all at once). */
  orderQuotes: QuoteFigures;
  /** Order creations: created, 502 (the solver's live quote missing), other failures. */
  creations: {
    created: number;
    /** Created within the service's wait for the solver's live quote, as a share of the attempts. */
    createdInTimeShare: number | null;
    badGateway: number;
    failed: number;
    latencyMs: Spread;
    /** Each distinct reason a creation failed with, and how often. */
    failures: { reason: string; count: number }[];
  };
  /** The separate burst of quotes through the service before the swaps. */
  burst: QuoteFigures;
  burstCpuMsPerQuote: number | null;
  /**
   * The same burst straight at the solver's quote endpoint, as the service's pooled client sends it, after
   * one burst that opened the connections and warmed the solver's code (`coldEndpointBurst`): a running
   * solver is asked over kept connections.
   */
  endpointBurst: QuoteFigures;
  /** The first burst after the solver started: every connection new, nothing compiled yet. */
  coldEndpointBurst: QuoteFigures;
  /** Upper bound (a histogram bucket) of the burst's p99 inside the solver's quote handler, ms. */
  burstSolverP99Ms: number | null;
  rpc: ChainRpcFigures[];
  solverCpuMs: number;
  /** Null when the service ran in the benchmark's own process. */
  serviceCpuMs: number | null;
  /** The solver, the benchmark's own process and the machine while the swaps ran. */
  solverCores: number;
  cpuShares: CpuShares;
  cpuMsPerCompletedOrder: number | null;
  cpuMsPerOrderRound: number | null;
  rounds: number;
  solverRssMiB: number;
  journalBytes: number;
  /** Why swaps did not open or complete (first few), so a failed run says what went wrong. */
  problems: string[];
  /** Null when the run had no flood. */
  flood: FloodFigures | null;
}

export interface RunInputs {
  orders: number;
  users: number;
  records: readonly SwapRecord[];
  clock: BlockClock;
  burst: readonly TimedQuote[];
  burstCpuMs: number;
  burstSolverP99Ms: number | null;
  endpointBurst: readonly TimedQuote[];
  coldEndpointBurst: readonly TimedQuote[];
  cpuMs: number;
  /** CPU the local service used while the swaps ran, ms; null when it ran in the benchmark's process. */
  serviceCpuMs: number | null;
  cpuShares: CpuShares;
  cpuPerOrderRoundMs: number | null;
  rounds: number;
  rssMiB: number;
  journalBytes: number;
  rpc: ReadonlyMap<string, Record<string, MethodCounts>>;
  chainFamilies: ReadonlyMap<string, string>;
  /** What the swaps that did not complete show (swaps.ts `describeIncomplete`). */
  incomplete: readonly string[];
  flood: FloodFigures | null;
}

/** The share of calls that succeeded within the service's wait; null when there were none. */
function inTimeShare<T extends { ms: number }>(
  calls: readonly T[],
  succeeded: (call: T) => boolean,
): number | null {
  if (calls.length === 0) return null;
  return calls.filter((c) => succeeded(c) && c.ms < ANSWER_LIMIT_MS).length / calls.length;
}

export function quoteFigures(quotes: readonly TimedQuote[]): QuoteFigures {
  return {
    requests: quotes.length,
    answered: quotes.filter((q) => q.outcome === "answered").length,
    answeredInTimeShare: inTimeShare(quotes, (q) => q.outcome === "answered"),
    timeouts: quotes.filter((q) => q.outcome === "timeout").length,
    refused: quotes.filter((q) => q.outcome === "refused").length,
    latencyMs: spread(quotes.map((q) => q.ms)),
  };
}

interface FillBlocks {
  sourceChain: string;
  /** The source block in which it reached its confirmations. */
  confirmedAt: number;
  /** When the fill's block was first seen. */
  fillSeenMs: number;
}

function fillBlocks(record: SwapRecord, clock: BlockClock): FillBlocks | null {
  const order = record.order;
  if (order === null) return null;
  const source = order.source_swap;
  const fillBlock = Number(order.destination_swap.initiate_block_number);
  const initiateBlock = Number(source.initiate_block_number);
  if (!(fillBlock > 0) || !(initiateBlock > 0)) return null;
  const confirmedAt = initiateBlock + Math.max(1, source.required_confirmations) - 1;
  const fillSeenMs = clock.seenAt(order.destination_swap.chain, fillBlock);
  return fillSeenMs === null ? null : { sourceChain: source.chain, confirmedAt, fillSeenMs };
}

/** Source blocks from the source's confirmation to the fill's block; null when either was not seen. */
export function fillLatencyBlocks(record: SwapRecord, clock: BlockClock): number | null {
  const fill = fillBlocks(record, clock);
  if (fill === null) return null;
  const sourceHeight = clock.heightAt(fill.sourceChain, fill.fillSeenMs);
  return sourceHeight === null ? null : sourceHeight - fill.confirmedAt;
}

/** Milliseconds from the source's confirming block to the fill's block, each as first seen; null when either was not. */
export function fillLatencyMs(record: SwapRecord, clock: BlockClock): number | null {
  const fill = fillBlocks(record, clock);
  if (fill === null) return null;
  const confirmedSeenMs = clock.seenAt(fill.sourceChain, fill.confirmedAt);
  return confirmedSeenMs === null ? null : fill.fillSeenMs - confirmedSeenMs;
}

export function floodFigures(
  options: QuoteFloodOptions,
  counts: FloodCounts & { cpuMs: number },
): FloodFigures {
  const seconds = counts.ms / 1000;
  const answered = Object.values(counts.byStatus).reduce((sum, n) => sum + n, 0);
  return {
    connections: options.connections,
    signed: options.signed,
    seconds,
    sent: counts.sent,
    perSecond: seconds > 0 ? answered / seconds : 0,
    byStatus: counts.byStatus,
    floodCpuMs: counts.cpuMs,
  };
}

function initiateToRedeemS(record: SwapRecord, clock: BlockClock): number | null {
  const order = record.order;
  if (order === null || record.initiatedAtMs === null || record.completedAtMs === null) return null;
  const redeemBlock = Number(order.source_swap.redeem_block_number);
  const seen = redeemBlock > 0 ? clock.seenAt(order.source_swap.chain, redeemBlock) : null;
  return ((seen ?? record.completedAtMs) - record.initiatedAtMs) / 1000;
}

function rpcFigures(inputs: RunInputs, completed: readonly SwapRecord[]): ChainRpcFigures[] {
  return [...inputs.rpc].map(([chain, counts]) => {
    const calls = Object.values(counts).reduce((sum, c) => sum + c.calls, 0);
    const sides = completed.filter(
      (r) => chainOfAsset(r.planned.kind.from) === chain || chainOfAsset(r.planned.kind.to) === chain,
    ).length;
    const topMethods = Object.entries(counts)
      .map(([method, c]) => ({ method, calls: c.calls }))
      .sort((a, b) => b.calls - a.calls)
      .slice(0, 6);
    return {
      chain,
      family: inputs.chainFamilies.get(chain) ?? "?",
      calls,
      sides,
      perCompletedOrder: completed.length === 0 ? null : calls / completed.length,
      perSide: sides === 0 ? null : calls / sides,
      topMethods,
    };
  });
}

export function measureRun(inputs: RunInputs): LoadFigures {
  const { records, clock } = inputs;
  const completed = records.filter((r) => r.completedAtMs !== null);
  const creates = records.flatMap((r) => (r.create === null ? [] : [r.create]));
  const problems = [
    ...new Set(
      records.flatMap((r) => [
        ...(r.create?.error ? [`create: ${r.create.error}`] : []),
        ...(r.initiateError ? [`initiate: ${r.initiateError}`] : []),
      ]),
    ),
  ]
    .slice(0, 5)
    .concat(inputs.incomplete.slice(0, 10));
  return {
    orders: inputs.orders,
    users: inputs.users,
    created: records.filter((r) => r.orderId !== null).length,
    initiated: records.filter((r) => r.initiatedAtMs !== null && r.initiateError === null).length,
    completed: completed.length,
    fillLatencyBlocks: spread(
      records.flatMap((r) => {
        const blocks = fillLatencyBlocks(r, clock);
        return blocks === null ? [] : [blocks];
      }),
    ),
    fillLatencyMs: spread(
      records.flatMap((r) => {
        const ms = fillLatencyMs(r, clock);
        return ms === null ? [] : [ms];
      }),
    ),
    fillLatencyByKind: [...new Set(records.map((r) => r.planned.kind.label))].map((label) => ({
      label,
      blocks: spread(
        records.flatMap((r) => {
          const blocks = r.planned.kind.label === label ? fillLatencyBlocks(r, clock) : null;
          return blocks === null ? [] : [blocks];
        }),
      ),
    })),
    initiateToRedeemS: spread(
      completed.flatMap((r) => {
        const s = initiateToRedeemS(r, clock);
        return s === null ? [] : [s];
      }),
    ),
    orderQuotes: quoteFigures(records.flatMap((r) => (r.quote === null ? [] : [r.quote]))),
    creations: {
      created: creates.filter((c) => c.outcome === "created").length,
      createdInTimeShare: inTimeShare(creates, (c) => c.outcome === "created"),
      badGateway: creates.filter((c) => c.outcome === "bad_gateway").length,
      failed: creates.filter((c) => c.outcome === "failed").length,
      latencyMs: spread(creates.map((c) => c.ms)),
      failures: countedReasons(
        creates.flatMap((c) => (c.outcome === "created" ? [] : [c.error ?? "no reason"])),
      ),
    },
    burst: quoteFigures(inputs.burst),
    burstCpuMsPerQuote: inputs.burst.length === 0 ? null : inputs.burstCpuMs / inputs.burst.length,
    burstSolverP99Ms: inputs.burstSolverP99Ms,
    endpointBurst: quoteFigures(inputs.endpointBurst),
    coldEndpointBurst: quoteFigures(inputs.coldEndpointBurst),
    serviceCpuMs: inputs.serviceCpuMs,
    rpc: rpcFigures(inputs, completed),
    solverCpuMs: inputs.cpuMs,
    solverCores: inputs.cpuShares.wallMs === 0 ? 0 : inputs.cpuMs / inputs.cpuShares.wallMs,
    cpuShares: inputs.cpuShares,
    cpuMsPerCompletedOrder: completed.length === 0 ? null : inputs.cpuMs / completed.length,
    cpuMsPerOrderRound: inputs.cpuPerOrderRoundMs,
    rounds: inputs.rounds,
    solverRssMiB: inputs.rssMiB,
    journalBytes: inputs.journalBytes,
    problems,
    flood: inputs.flood,
  };
}

/** How often each reason occurs, most frequent first. */
export function countedReasons(reasons: readonly string[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

/**
 * One run of the load benchmark: a fresh localnet with enough users, a counting RPC proxy in front of
 * each chain for the solver (the fault proxy with no faults; the proxies in a process of their own,
 * rpc-proxies.ts), the solver as its own process on a fresh
 * journal, a burst of quotes through the service, then N swaps opened at once and followed to the end,
 * with a flood of quote requests at the solver's endpoint while they fill when asked (quote-flood.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { writeKeyFile, writeSolverProfile } from "../../../src/cli/solver-profile.js";
import type { SolverConfig } from "../../../src/config/types.js";
import type { QuoteLimitSettings } from "../../../src/pricing/quote-guard.js";
import { startLocalnet, type Localnet } from "@htlc-solver/localnet/localnet.js";
import { DEFAULT_QUOTE_TIMEOUT_MS, type LocalServiceConfig } from "@htlc-solver/localnet/service/config.js";
import { OrderbookClient } from "../../../src/orderbook/client.js";
import { poolFetchConnections } from "./connection-pool.js";
import { BlockClock, evmTipReader, type TipReader } from "./block-clock.js";
import { floodFigures, measureRun, type LoadFigures } from "./figures.js";
import type { QuoteFloodOptions } from "./quote-flood.js";
import { startQuoteFloodProcess, type RunningFlood } from "./quote-flood-process.js";
import { timedQuote, timedSolverQuote, type ServiceEndpoint, type TimedQuote } from "./service-calls.js";
import type { BenchChild } from "./child-process.js";
import { startRpcProxies, type RpcProxies } from "./rpc-proxies.js";
import { databaseBytes, startSolverProcess } from "./solver-process.js";
import type { StartBitcoinRegtestOptions } from "@htlc-solver/localnet/families/bitcoin/chain/index.js";
import { startBitcoinNodeProcess } from "./bitcoin-node-process.js";
import { CpuWindow } from "./cpu-window.js";
import { startServiceProcess, type ServiceProcess } from "./service-process.js";
import { SolverSampler } from "./solver-sampler.js";
import { planSwaps, SWAP_KINDS, type SwapKind } from "./swap-mix.js";
import { describeIncomplete, followSwaps, openCount, openSwaps } from "./swaps.js";
import { readyUsers } from "./users.js";
import { p99BoundMs, readQuoteHistogram } from "./quote-histogram.js";

export interface LoadOptions {
  orders: number;
  /** Localnet users the swaps are spread over; enough that none has more than ~20 orders by default. */
  users?: number;
  /** Concurrent quotes of the burst through the service before the swaps open. */
  quoteBurst?: number;
  /** How long the swaps may take to complete, from the first initiate. */
  timeoutMs?: number;
  /** Progress lines while the run goes on. */
  print?: (line: string) => void;
  /**
   * Run the local service as its own process, its CPU measured apart, instead of in the benchmark's own
   * (beside the users and the Bitcoin node). On two cores its own process takes CPU from
   * the solver: at N = 1000 fills landed later (12-13 / 25-26 blocks against 5 / 16), quotes sooner.
   */
  serviceProcess?: boolean;
  /** Run the Bitcoin regtest node as its own process, as bitcoind runs, instead of in the benchmark's. */
  bitcoinProcess?: boolean;
  /**
   * Run the counting RPC proxies in the benchmark's own process instead of their own (rpc-proxies.ts):
   * every RPC round trip of the solver then waits behind the users' work, as no RPC node makes it wait.
   */
  sharedProxies?: boolean;
  /** Keep the run's directory (logs, journal) instead of removing it. */
  keepDir?: boolean;
  /**
   * The solver's quote limits. The load benchmark measures what the solver does with every quote it is
   * asked, so by default it lifts them (LIFTED_QUOTE_LIMITS); the flood benchmark keeps the defaults.
   */
  quoteLimits?: QuoteLimitSettings;
  /**
   * Create every order first, then initiate the sources: every fill then comes after the opening, the
   * same with or without a flood.
   */
  phasedOpening?: boolean;
  /** Flood the solver's quote endpoint from the last order created until the last swap completes. */
  quoteFlood?: QuoteFloodOptions | null;
}

/** Far beyond any burst the load benchmark sends. */
export const LIFTED_QUOTE_LIMITS: QuoteLimitSettings = {
  maxConcurrent: 100_000,
  perClientPerSecond: 1_000_000,
  perClientBurst: 1_000_000,
};

export function defaultUsers(orders: number): number {
  return Math.min(200, Math.max(4, Math.ceil(orders / 20)));
}

export function defaultTimeoutMs(orders: number): number {
  return Math.max(120_000, orders * 600);
}

/** Runs the benchmark once and returns its figures. */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const print = options.print ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), "bench-load-"));
  const logger = pino(
    { level: process.env.BENCH_LOCALNET_LOG_LEVEL ?? "warn" },
    pino.destination({ dest: join(dir, "localnet.log"), sync: false }),
  );
  const users = options.users ?? defaultUsers(options.orders);
  print(`localnet with ${users} users in ${dir}`);
  // The directory is new: not "fresh", which would empty it and take the open log file with it.
  const started: { service?: ServiceProcess } = {};
  const net = await startLocalnet({
    dir,
    logger,
    startSolver: false,
    users,
    fresh: false,
    ...(options.serviceProcess !== true
      ? {}
      : {
          startService: async (config: LocalServiceConfig) =>
            (started.service = await startServiceProcess(config, dir, nodeArgsOf("BENCH_SERVICE_NODE_ARGS"))),
        }),
    ...(options.bitcoinProcess !== true
      ? {}
      : {
          startBitcoinNode: (nodeOptions: StartBitcoinRegtestOptions) =>
            startBitcoinNodeProcess(nodeOptions, dir),
        }),
  });
  let proxies: RpcProxies | null = null;
  let solver: BenchChild | null = null;
  let clock: BlockClock | null = null;
  // Set inside the opening's callback: held in an object so that the finally below sees it.
  const flood: { running: RunningFlood | null } = { running: null };
  const unpoolFetch = poolFetchConnections();
  try {
    const serviceChild = started.service?.child ?? null;
    if (serviceChild === null && options.serviceProcess === true)
      throw new Error("the localnet did not start the service's process");
    const upstreams = new Map(
      net.solverConfig.chains.map((chain) => [
        chain.name,
        (chain.family === "bitcoin" ? net.bitcoin.rpcUrl : chain.rpcUrls[0]) ?? "",
      ]),
    );
    proxies = await startRpcProxies(upstreams, { ownProcess: options.sharedProxies !== true, dir });
    const journalPath = join(dir, "solver-bench.sqlite");
    const profile = writeBenchProfile(dir, net, proxies.urls, journalPath, {
      ...net.solverConfig.quote,
      limits: options.quoteLimits ?? LIFTED_QUOTE_LIMITS,
    });
    solver = await startSolverProcess({
      profile,
      logFile: join(dir, "solver-bench.log"),
      quoteUrl: net.descriptor.solver.quoteUrl,
      opsUrl: net.descriptor.solver.opsUrl,
      nodeArgs: nodeArgsOf("BENCH_SOLVER_NODE_ARGS"),
    });
    clock = new BlockClock(tipReaders(net));
    await clock.start();
    const orderbook = new OrderbookClient({
      baseUrl: net.descriptor.service.url,
      appId: net.descriptor.service.appId,
      timeoutMs: 120_000,
    });
    const service: ServiceEndpoint = {
      url: net.descriptor.service.url,
      appId: net.descriptor.service.appId,
      quoteTimeoutMs: net.serviceConfig.quoteTimeoutMs ?? DEFAULT_QUOTE_TIMEOUT_MS,
    };
    const planned = planSwaps(options.orders, users);
    const benchUsers = await readyUsers(net.descriptor, orderbook, planned);

    const burstSize = options.quoteBurst ?? 1_000;
    const solverAtService = net.serviceConfig.solvers[0];
    if (solverAtService === undefined) throw new Error("the localnet's service knows no solver");
    const askSolver = (kind: SwapKind) => timedSolverQuote(solverAtService, kind, service.quoteTimeoutMs);
    print(`quote burst: ${burstSize} concurrent quotes straight at the solver's endpoint, twice`);
    const coldEndpointBurst = await burstOf(burstSize, askSolver);
    const endpointBurst = await burstOf(burstSize, askSolver);
    print(`quote burst: ${burstSize} concurrent quotes through the service`);
    const burstCpuBefore = solver.cpuMs();
    const handledBefore = await readQuoteHistogram(net.descriptor.solver.opsUrl);
    const burst = await burstOf(burstSize, (kind) => timedQuote(service, kind));
    const burstCpuMs = solver.cpuMs() - burstCpuBefore;
    const burstSolverP99Ms = p99BoundMs(
      handledBefore,
      await readQuoteHistogram(net.descriptor.solver.opsUrl),
    );

    await proxies.reset();
    const cpuBefore = solver.cpuMs();
    const serviceCpuBefore = serviceChild?.cpuMs() ?? 0;
    const running = solver;
    let records: Awaited<ReturnType<typeof openSwaps>> = [];
    const sampler = new SolverSampler({
      opsUrl: net.descriptor.solver.opsUrl,
      cpuMs: () => running.cpuMs(),
      openOrders: () => openCount(records),
    });
    sampler.start();
    const openedAt = Date.now();
    const cpuWindow = new CpuWindow();
    print(`opening ${options.orders} swaps at once`);
    const floodOptions = options.quoteFlood ?? null;
    const beforeInitiating = async (): Promise<void> => {
      if (floodOptions === null) return;
      print(
        `flooding the solver's quote endpoint: ${floodOptions.connections} connections, ${floodOptions.signed ? "signed" : "unsigned"}`,
      );
      flood.running = await startQuoteFloodProcess(
        {
          quoteUrl: net.descriptor.solver.quoteUrl,
          secret: floodOptions.signed ? net.solverConfig.quote.auth.secret : null,
          connections: floodOptions.connections,
        },
        dir,
      );
    };
    const phased = options.phasedOpening === true || floodOptions !== null;
    records = await openSwaps(planned, benchUsers, service, orderbook, phased ? { beforeInitiating } : {});
    print(`opened in ${((Date.now() - openedAt) / 1000).toFixed(1)} s; following them`);
    await followSwaps(records, orderbook, {
      deadlineMs: Date.now() + (options.timeoutMs ?? defaultTimeoutMs(options.orders)),
      progress: (done, open) => print(`  ${done} complete, ${open} still open`),
    });
    const floodCounts = flood.running === null ? null : await flood.running.stop();
    flood.running = null;
    const incomplete = await describeIncomplete(records, benchUsers);
    await sampler.stop();
    const cpuShares = cpuWindow.shares();
    const cpuMs = solver.cpuMs() - cpuBefore;
    const serviceCpuMs = serviceChild === null ? null : serviceChild.cpuMs() - serviceCpuBefore;
    const rssMiB = solver.rssMiB();
    await solver.stop();
    solver = null;
    await clock.stop();
    return measureRun({
      orders: options.orders,
      users,
      records,
      clock,
      burst,
      burstCpuMs,
      burstSolverP99Ms,
      endpointBurst,
      coldEndpointBurst,
      cpuMs,
      serviceCpuMs,
      cpuShares,
      cpuPerOrderRoundMs: sampler.cpuPerOrderRoundMs(),
      rounds: sampler.rounds,
      rssMiB,
      journalBytes: databaseBytes(journalPath),
      rpc: await proxies.counts(),
      chainFamilies: new Map(net.solverConfig.chains.map((c) => [c.name, c.family])),
      incomplete,
      flood: floodOptions === null || floodCounts === null ? null : floodFigures(floodOptions, floodCounts),
    });
  } finally {
    await flood.running?.child.stop();
    await solver?.stop();
    await clock?.stop();
    // When each block appeared, beside the journals, for working out where a kept run's fills waited.
    if (options.keepDir === true && clock !== null)
      writeFileSync(join(dir, "blocks.json"), JSON.stringify(clock.blocksSeen()));
    await proxies?.stop();
    await net.stop();
    await unpoolFetch();
    logger.flush();
    if (options.keepDir !== true) rmSync(dir, { recursive: true, force: true });
    else print(`run directory kept: ${dir}`);
  }
}

/** The localnet's solver config, reading every chain through its counting proxy, on a fresh journal. */
function writeBenchProfile(
  dir: string,
  net: Localnet,
  proxyUrls: ReadonlyMap<string, string>,
  journalPath: string,
  quote: SolverConfig["quote"],
): string {
  const proxied = (name: string): string => {
    const url = proxyUrls.get(name);
    if (url === undefined) throw new Error(`no proxy for chain ${name}`);
    return url;
  };
  const config: SolverConfig = {
    ...net.solverConfig,
    chains: net.solverConfig.chains.map((chain) => ({ ...chain, rpcUrls: [proxied(chain.name)] })),
    journal: { path: journalPath },
    quote,
  };
  const keyFile = join(dir, "solver-bench-keys.json");
  writeKeyFile(keyFile, config.solver.keys);
  const profile = join(dir, "solver-bench.json");
  writeSolverProfile(profile, config, { keyFile });
  return profile;
}

function tipReaders(net: Localnet): Map<string, TipReader> {
  const readers = new Map<string, TipReader>();
  for (const chain of net.descriptor.chains) readers.set(chain.name, evmTipReader(chain.rpcUrl));
  readers.set(net.bitcoin.name, () => net.bitcoin.rpc.getBlockCount());
  return readers;
}

/** `size` quotes at once, over every pair the swaps use. */
async function burstOf(size: number, ask: (kind: SwapKind) => Promise<TimedQuote>): Promise<TimedQuote[]> {
  return Promise.all(
    Array.from({ length: size }, (_, i) => ask(SWAP_KINDS[i % SWAP_KINDS.length] as SwapKind)),
  );
}

/** Extra node arguments for a child from an environment variable, e.g. `--cpu-prof` to profile it. */
function nodeArgsOf(variable: string): string[] {
  return (process.env[variable] ?? "").split(" ").filter((arg) => arg !== "");
}

/**
 * The crash loop: the solver runs as its own process behind fault-injecting proxies on every chain
 * (a share of all RPC calls fail: HTTP 500, 429 with Retry-After, JSON-RPC errors, reset connections),
 * and is SIGKILLed at random moments while users drive swaps between the two anvil chains, both ways.
 * Afterwards the journal and the chains are checked: every swap completed, no order filled twice, no
 * source left unredeemed after its destination was, and the solver's token balances moved by exactly
 * what the completed swaps say.
 */
import { join } from "node:path";
import PQueue from "p-queue";
import { createPublicClient, http, type Address } from "viem";
import { erc20Abi } from "../../src/chains/evm/htlc-abi.js";
import { writeSolverProfile } from "../../src/cli/solver-profile.js";
import type { SolverConfig } from "../../src/config/types.js";
import { Journal } from "../../src/journal/journal.js";
import { newUserSecret, type LocalUser } from "../../src/localnet/user.js";
import type { Order } from "../../src/orderbook/types.js";
import { SolverProcess } from "../e2e/cli/support/solver-process.js";
import { FaultProxy } from "../support/fault-proxy.js";
import { seededRandom } from "../support/fault-proxy-json.js";
import { startTestLocalnet, type TestLocalnet } from "../support/localnet.js";

export interface ChaosOptions {
  swaps: number;
  /** SIGKILLs at least this many; the loop goes on until every swap is done too. */
  kills: number;
  /** Share of RPC calls that fail, 0 to 1. */
  failRate: number;
  /** A kill comes this long (ms, drawn uniformly) after the solver said it started. */
  killAfterMs: [number, number];
  /** A new swap starts this often (ms). */
  swapSpacingMs: number;
  seed: number;
  /** Give up on the swaps after this long. */
  timeoutMs: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  swaps: number;
  completed: number;
  kills: number;
  /** Starts that failed (the process exited before it said it started) and were tried again. */
  failedStarts: number;
  rpcCalls: number;
  rpcFaults: number;
  /** Orders with more than one fill mined, from the journal. */
  doubleFills: string[];
  /** Orders whose destination the user redeemed and whose source the solver did not. */
  missedRedeems: string[];
  /** Token balance changes of the solver that differ from what the completed swaps say. */
  balanceMismatches: string[];
  seconds: number;
}

const PAIRS = [
  ["ethereum_localnet:usdc", "arbitrum_localnet:usdc"],
  ["arbitrum_localnet:usdc", "ethereum_localnet:usdc"],
] as const;
const AMOUNT = 20_000_000n;

interface Swap {
  user: LocalUser;
  order: Order;
  secret: string;
  userRedeemed: boolean;
  done: boolean;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const say = options.log ?? (() => undefined);
  const started = Date.now();
  const random = seededRandom(options.seed);
  const t = await startTestLocalnet({ startSolver: false });
  const proxies = new Map<string, FaultProxy>();
  const solvers: SolverProcess[] = [];
  try {
    const base = t.net.solverConfig;
    for (const chain of base.chains) {
      const upstream = chain.family === "bitcoin" ? t.net.bitcoin.rpcUrl : chain.rpcUrls[0];
      if (upstream === undefined) continue;
      const proxy = new FaultProxy(upstream, {
        seed: options.seed + proxies.size,
        config: {
          failRate: options.failRate,
          faults: { http500: 1, http429: 1, rpcError: 1, reset: 1 },
          retryAfter: { seconds: 1, form: "seconds" },
        },
      });
      await proxy.start();
      proxies.set(chain.name, proxy);
    }
    const config: SolverConfig = {
      ...base,
      chains: base.chains.map((c) => ({ ...c, rpcUrls: [proxies.get(c.name)?.url ?? ""] })),
    };
    const profile = join(t.dir, "solver.json");
    writeSolverProfile(profile, config);
    const holdingsBefore = await holdings(t, config);

    let kills = 0;
    let failedStarts = 0;
    const start = async (): Promise<SolverProcess> => {
      for (;;) {
        const solver = new SolverProcess(["run", "--config", profile], {
          SOLVER_EVM_PRIVATE_KEY: config.solver.keys.evm,
          SOLVER_BITCOIN_PRIVATE_KEY: config.solver.keys.bitcoin,
          SOLVER_SOLANA_PRIVATE_KEY: config.solver.keys.solana,
          SOLVER_CONFIG: "",
        });
        solvers.push(solver);
        try {
          await solver.waitForLog((l) => l.msg === "solver started", "solver started", 60_000);
          return solver;
        } catch (error) {
          failedStarts += 1;
          say(`start failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
          await solver.kill();
        }
      }
    };
    let solver = await start();

    const swaps: Swap[] = [];
    const userQueues = [0, 1, 2].map(() => new PQueue({ concurrency: 1 }));
    const deadline = started + options.timeoutMs;
    const driveSwap = async (index: number): Promise<void> => {
      const user = t.user(index % 3);
      const queue = userQueues[index % 3]!;
      const [from, to] = PAIRS[index % PAIRS.length]!;
      const { secret, secretHash } = newUserSecret();
      // The solver answers quotes; while it is down the user asks again.
      const order = await retry(
        async () => user.createOrder(await user.bestQuote(from, to, AMOUNT), { secretHash }),
        deadline,
      );
      const swap: Swap = { user, order, secret, userRedeemed: false, done: false };
      swaps.push(swap);
      await retry(() => queue.add(() => user.initiateWithSignature(order)), deadline);
      const filled = await user.waitForOrder(
        order.order_id,
        (o) => o.destination_swap.initiate_tx_hash !== "",
        {
          timeoutMs: deadline - Date.now(),
          intervalMs: 1_000,
        },
      );
      await retry(() => queue.add(() => user.redeemDestination(filled, secret as `0x${string}`)), deadline);
      swap.userRedeemed = true;
      await user.waitForOrder(order.order_id, (o) => o.source_swap.redeem_tx_hash !== "", {
        timeoutMs: deadline - Date.now(),
        intervalMs: 1_000,
      });
      swap.done = true;
      say(`swap ${index + 1} complete (${swaps.filter((s) => s.done).length}/${options.swaps})`);
    };

    const driving = (async () => {
      const running: Promise<void>[] = [];
      for (let i = 0; i < options.swaps; i++) {
        running.push(driveSwap(i).catch((error: unknown) => say(`swap ${i + 1} failed: ${String(error)}`)));
        await sleep(options.swapSpacingMs);
      }
      await Promise.all(running);
    })();
    let driven = false;
    void driving.then(() => (driven = true));

    while ((!driven || kills < options.kills) && Date.now() < deadline) {
      const [low, high] = options.killAfterMs;
      await sleep(low + random() * (high - low));
      await solver.kill();
      kills += 1;
      solver = await start();
    }
    await driving;
    // A last stretch without kills: what is still under way ends.
    await sleep(5_000);
    solver.signal("SIGTERM");
    await solver.exited;

    const journal = new Journal(config.journal.path);
    const doubleFills: string[] = [];
    try {
      for (const { order } of swaps) {
        const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill");
        const mined = fill
          ? journal.attemptsOfAction(fill.id).filter((a) => a.state === "confirmed" && a.purpose === "action")
          : [];
        if (mined.length > 1) doubleFills.push(order.order_id);
      }
    } finally {
      journal.close();
    }
    const finalOrders = await Promise.all(swaps.map((s) => t.orderbook.getOrder(s.order.order_id)));
    const missedRedeems = finalOrders
      .filter((o) => o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash === "")
      .map((o) => o.order_id);
    const completed = finalOrders.filter(
      (o) => o.destination_swap.redeem_tx_hash !== "" && o.source_swap.redeem_tx_hash !== "",
    );
    const holdingsAfter = await holdings(t, config);
    const expected = new Map<string, bigint>();
    for (const o of completed) {
      expected.set(
        o.source_swap.asset,
        (expected.get(o.source_swap.asset) ?? 0n) + BigInt(o.source_swap.amount),
      );
      expected.set(
        o.destination_swap.asset,
        (expected.get(o.destination_swap.asset) ?? 0n) - BigInt(o.destination_swap.amount),
      );
    }
    const balanceMismatches: string[] = [];
    for (const [asset, before] of holdingsBefore) {
      const moved = (holdingsAfter.get(asset) ?? 0n) - before;
      const want = expected.get(asset) ?? 0n;
      if (moved !== want) balanceMismatches.push(`${asset}: moved ${moved}, swaps say ${want}`);
    }
    let rpcCalls = 0;
    let rpcFaults = 0;
    for (const proxy of proxies.values()) {
      const totals = proxy.totals();
      rpcCalls += totals.calls;
      rpcFaults += totals.faults;
    }
    return {
      swaps: options.swaps,
      completed: completed.length,
      kills,
      failedStarts,
      rpcCalls,
      rpcFaults,
      doubleFills,
      missedRedeems,
      balanceMismatches,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await Promise.all(solvers.map((s) => s.kill()));
    for (const proxy of proxies.values()) await proxy.stop();
    await t.net.stop();
  }
}

/** The solver's token balances on the anvil chains (what the swaps move; gas is paid in the coin). */
async function holdings(t: TestLocalnet, config: SolverConfig): Promise<Map<string, bigint>> {
  const result = new Map<string, bigint>();
  const owner = t.net.descriptor.solver.evmAddress as Address;
  for (const chain of t.net.descriptor.chains) {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    for (const asset of chain.assets) {
      if (asset.tokenAddress === "native" || !PAIRS.some((p) => p.includes(asset.id as never))) continue;
      const balance = await client.readContract({
        address: asset.tokenAddress as Address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [owner],
      });
      result.set(asset.id, balance);
    }
  }
  void config;
  return result;
}

async function retry<T>(action: () => Promise<T>, deadline: number): Promise<T> {
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(1_000);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The report as lines, and whether it shows any loss or an unfinished swap. */
export function describeReport(report: ChaosReport): { lines: string[]; ok: boolean } {
  const lines = [
    `swaps completed        ${report.completed}/${report.swaps}`,
    `SIGKILLs               ${report.kills} (failed starts retried: ${report.failedStarts})`,
    `RPC calls / faults     ${report.rpcCalls} / ${report.rpcFaults} (${((100 * report.rpcFaults) / Math.max(1, report.rpcCalls)).toFixed(1)} %)`,
    `double fills           ${report.doubleFills.length}${report.doubleFills.length ? `: ${report.doubleFills.join(", ")}` : ""}`,
    `missed source redeems  ${report.missedRedeems.length}${report.missedRedeems.length ? `: ${report.missedRedeems.join(", ")}` : ""}`,
    `balance mismatches     ${report.balanceMismatches.length}${report.balanceMismatches.length ? `: ${report.balanceMismatches.join("; ")}` : ""}`,
    `took                   ${report.seconds} s`,
  ];
  const ok =
    report.completed === report.swaps &&
    report.doubleFills.length === 0 &&
    report.missedRedeems.length === 0 &&
    report.balanceMismatches.length === 0;
  return { lines, ok };
}

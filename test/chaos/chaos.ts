/**
 * The crash loop: the solver runs as its own process behind fault-injecting proxies on every chain
 * (a share of all RPC calls fail: HTTP 500, 429 with Retry-After, JSON-RPC errors, reset connections),
 * and is SIGKILLed at random moments while users drive swaps of every family (pairs.ts): between the two
 * anvil chains, and both ways between an anvil chain and the Bitcoin regtest chain or the Solana cluster.
 * Afterwards the journal and the chains are checked (checks.ts): every swap completed, no fill landed
 * twice, no source left unredeemed after its destination was, and the solver's holdings of every asset
 * moved by exactly what the completed swaps say, less the network fees its journal records as paid.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import PQueue from "p-queue";
import type { Hex } from "viem";
import { writeSolverProfile } from "../../src/cli/solver-profile.js";
import type { SolverConfig } from "../../src/config/types.js";
import { Journal } from "../../src/journal/journal.js";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../src/orderbook/types.js";
import { feeAssets } from "../../src/pnl/fee-assets.js";
import { SolverProcess } from "../e2e/cli/support/solver-process.js";
import type { FaultProxy } from "../support/fault-proxy.js";
import { seededRandom } from "../support/fault-proxy-json.js";
import { startTestLocalnet } from "../support/localnet.js";
import { solverKeyEnv } from "../support/solver-key-env.js";
import {
  absentSplVaults,
  balanceMismatches,
  doubleFills,
  costsPaid,
  isCompleted,
  isMissedRedeem,
} from "./checks.js";
import { solverHoldings } from "./holdings.js";
import { behindFaultProxies } from "./proxies.js";
import {
  CHAOS_PAIRS,
  chainFamilies,
  chainOf,
  FAMILIES,
  lockSource,
  redeemDestination,
  swapFamily,
  userKeepsSecret,
  type Family,
} from "./pairs.js";
import type { ChaosReport } from "./report.js";

export interface ChaosOptions {
  /** Swaps to drive, taking the pairs in turn (pairs.ts): three cover every family. */
  swaps: number;
  /** SIGKILLs at most this many, at random moments while swaps are under way; then they are let finish. */
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

const USERS = 3;
/** Once the swaps are driven, how long the solver may take (no more kills) to finish what it sent. */
const SETTLE_MS = 60_000;

interface Swap {
  index: number;
  family: Family;
  order: Order | null;
  startedMs: number;
  endedMs: number | null;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const say = options.log ?? (() => undefined);
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const random = seededRandom(options.seed);
  const t = await startTestLocalnet({ startSolver: false });
  say(`localnet ready at ${since()}; journal and solver logs in ${t.dir}`);
  const proxies = new Map<string, FaultProxy>();
  const solvers: SolverProcess[] = [];
  try {
    const base = t.net.solverConfig;
    const familyOf = chainFamilies(base.chains);
    const config = await behindFaultProxies(base, options, proxies);
    const profile = join(t.dir, "solver.json");
    writeSolverProfile(profile, config);

    let failedStarts = 0;
    const start = async (): Promise<SolverProcess> => {
      for (;;) {
        const solver = new SolverProcess(["run", "--config", profile], {
          ...solverKeyEnv(config.solver.keys),
          SOLVER_CONFIG: "",
        });
        solvers.push(solver);
        // Each process's log is kept beside the journal: a failed run is read from them.
        const logPath = join(t.dir, `solver-${solvers.length}.log`);
        void solver.exited.then(() =>
          writeFileSync(logPath, [...solver.stdout, ...solver.stderr].join("\n")),
        );
        try {
          await solver.waitForLog((l) => l.msg === "solver started", "solver started", 60_000);
          say(`solver ${solver.pid} started at ${since()}`);
          return solver;
        } catch (error) {
          failedStarts += 1;
          say(`start failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
          await solver.kill();
        }
      }
    };
    let solver = await start();

    // Read once the first start's set-up transactions (EVM allowances, delegation) are mined, and before
    // any swap: from here on, every transaction of the solver's is journaled.
    const assets = checkedAssets(config);
    const holdingsBefore = await solverHoldings(t, assets, familyOf);
    const vaultsBefore = await absentSplVaults(t, assets);
    const bitcoinFromHeight = (await t.net.bitcoin.rpc.getBlockCount()) + 1;

    const users = Array.from({ length: USERS }, (_, i) => t.user(i));
    const userQueues = users.map(() => new PQueue({ concurrency: 1 }));
    const swaps: Swap[] = [];
    const killTimes: number[] = [];
    const deadline = started + options.timeoutMs;
    const driveSwap = async (swap: Swap): Promise<void> => {
      const user = users[swap.index % USERS] as LocalUser;
      const queue = userQueues[swap.index % USERS] as PQueue;
      const { from, to, amount } = CHAOS_PAIRS[swap.index % CHAOS_PAIRS.length]!;
      const keepsSecret = userKeepsSecret(familyOf(chainOf(to)));
      const { secret, secretHash } = newUserSecret();
      // The solver answers quotes; while it is down the user asks again.
      const order = await retry(
        async () =>
          user.createOrder(await user.bestQuote(from, to, amount), keepsSecret ? { secretHash } : {}),
        deadline,
      );
      swap.order = order;
      await queue.add(() => lockSource(user, order, familyOf(chainOf(from))));
      const waiting = () => ({ timeoutMs: deadline - Date.now(), intervalMs: 1_000 });
      if (keepsSecret) {
        const filled = await user.waitForOrder(
          order.order_id,
          (o) => o.destination_swap.current_confirmations >= 1,
          waiting(),
        );
        await queue.add(() => redeemDestination(user, filled, secret as Hex, familyOf(chainOf(to))));
      }
      await user.waitForOrder(order.order_id, isCompleted, waiting());
    };

    const driving = (async () => {
      const running: Promise<void>[] = [];
      for (let index = 0; index < options.swaps; index++) {
        const { from, to } = CHAOS_PAIRS[index % CHAOS_PAIRS.length]!;
        const swap: Swap = {
          index,
          family: swapFamily(familyOf, from, to),
          order: null,
          startedMs: Date.now(),
          endedMs: null,
        };
        swaps.push(swap);
        running.push(
          driveSwap(swap)
            .then(() =>
              say(`swap ${index + 1} (${from} -> ${to}) ${swap.order?.order_id} complete at ${since()}`),
            )
            .catch((error: unknown) =>
              say(
                `swap ${index + 1} (${from} -> ${to}) ${swap.order?.order_id ?? "(no order)"} failed: ${String(error)}`,
              ),
            )
            .finally(() => (swap.endedMs = Date.now())),
        );
        await sleep(options.swapSpacingMs);
      }
      await Promise.all(running);
    })();
    let driven = false;
    void driving.then(() => (driven = true));
    // The kills come while swaps are under way; after the last one the solver runs undisturbed until
    // every swap is done. Every start walks the Bitcoin index's look-back again, and a solver killed
    // before each walk ends never reads a Bitcoin order at all.
    while (!driven && killTimes.length < options.kills && Date.now() < deadline) {
      const [low, high] = options.killAfterMs;
      await sleep(low + random() * (high - low));
      if (driven) break;
      await solver.kill();
      killTimes.push(Date.now());
      say(`SIGKILL ${killTimes.length} at ${since()}`);
      solver = await start();
    }
    await driving;
    // A last stretch without kills: what the solver sent ends, so the chains and its journal agree.
    const settled = await untilNothingLive(config.journal.path, SETTLE_MS);
    say(`${settled ? "nothing left in flight" : "transactions still in flight"} at ${since()}`);
    solver.signal("SIGTERM");
    await solver.exited;

    const orders = await Promise.all(
      swaps.flatMap((s) => (s.order === null ? [] : [t.orderbook.getOrder(s.order.order_id)])),
    );
    const completed = orders.filter(isCompleted);
    const journal = new Journal(config.journal.path);
    let doubled: Set<string>;
    let mismatches: Map<string, string>;
    try {
      doubled = await doubleFills(t, journal, orders, familyOf, bitcoinFromHeight);
      const costs = costsPaid(journal, t, vaultsBefore);
      const holdingsAfter = await solverHoldings(t, assets, familyOf);
      mismatches = balanceMismatches(holdingsBefore, holdingsAfter, completed, costs);
    } finally {
      journal.close();
    }

    const familyOfOrder = new Map(swaps.flatMap((s) => (s.order ? [[s.order.order_id, s.family]] : [])));
    const ofFamily = (family: Family) => orders.filter((o) => familyOfOrder.get(o.order_id) === family);
    const families = FAMILIES.map((family) => {
      const mine = swaps.filter((s) => s.family === family);
      return {
        family,
        swaps: mine.length,
        completed: ofFamily(family).filter(isCompleted).length,
        kills: killTimes.filter((at) => mine.some((s) => s.startedMs <= at && (s.endedMs ?? Infinity) >= at))
          .length,
        doubleFills: ofFamily(family)
          .filter((o) => doubled.has(o.order_id))
          .map((o) => o.order_id),
        missedRedeems: ofFamily(family)
          .filter(isMissedRedeem)
          .map((o) => o.order_id),
        balanceMismatches: [...mismatches]
          .filter(([asset]) => familyOf(chainOf(asset)) === family)
          .map(([, line]) => line),
      };
    });
    const chains = [...proxies].map(([chain, proxy]) => {
      const totals = proxy.totals();
      return { chain, family: familyOf(chain), rpcCalls: totals.calls, rpcFaults: totals.faults };
    });
    return {
      swaps: options.swaps,
      completed: completed.length,
      kills: killTimes.length,
      failedStarts,
      families,
      chains,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await Promise.all(solvers.map((s) => s.kill()));
    for (const proxy of proxies.values()) await proxy.stop();
    await t.net.stop();
  }
}

/** Every asset of the pairs, and the fee coin of every chain. */
function checkedAssets(config: SolverConfig): string[] {
  const feeAssetOf = feeAssets(config.chains);
  return [
    ...new Set([
      ...CHAOS_PAIRS.flatMap((p) => [p.from, p.to]),
      ...config.chains.map((c) => feeAssetOf(c.name).id),
    ]),
  ];
}

/** Waits until the journal holds no transaction that is not final yet; false when that took too long. */
async function untilNothingLive(journalPath: string, timeoutMs: number): Promise<boolean> {
  const journal = new Journal(journalPath);
  try {
    const until = Date.now() + timeoutMs;
    while (journal.liveAttemptRows().length > 0) {
      if (Date.now() > until) return false;
      await sleep(1_000);
    }
    return true;
  } finally {
    journal.close();
  }
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

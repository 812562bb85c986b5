/**
 * The solver as its own process (`solver run --config`) on a test localnet, for the tests that kill it in
 * the middle of a fill and restart it on the same journal: the profile, starting and stopping, and what
 * the journal holds of an order's fill.
 */
import { join } from "node:path";
import { expect } from "vitest";
import { writeSolverProfile } from "../../../src/cli/solver-profile.js";
import type { SolverConfig } from "../../../src/config/types.js";
import { Journal, type ActionRow, type AttemptRow } from "../../../src/journal/journal.js";
import type { TestLocalnet } from "../../support/localnet.js";
import { solverKeyEnv } from "../../support/solver-key-env.js";
import { SolverProcess, type LogLine } from "../cli/support/solver-process.js";

/** A log line about the order's fill with this message, whether it names the order alone or in a batch. */
export const isFillLine = (msg: string, orderId: string) => (line: LogLine) =>
  line.msg === msg &&
  line.kind === "fill" &&
  (line.orderId === orderId || (Array.isArray(line.orderIds) && line.orderIds.includes(orderId)));

export class SolverProcessHarness {
  readonly config: SolverConfig;
  private readonly profile: string;
  private readonly processes: SolverProcess[] = [];

  /** `config` is the localnet's solver config as the processes run it (RPC URLs through proxies, ...). */
  constructor(t: TestLocalnet, config: SolverConfig) {
    this.config = config;
    this.profile = join(t.dir, "solver.json");
    writeSolverProfile(this.profile, config);
  }

  /** A new solver process on the profile, just spawned; `env` adds to or overrides its environment. */
  spawn(env: NodeJS.ProcessEnv = {}): SolverProcess {
    const solver = new SolverProcess(["run", "--config", this.profile], {
      ...solverKeyEnv(this.config.solver.keys),
      SOLVER_CONFIG: "",
      ...env,
    });
    this.processes.push(solver);
    return solver;
  }

  /** A new solver process on the profile, once it has logged that it started. */
  async start(env: NodeJS.ProcessEnv = {}): Promise<SolverProcess> {
    const solver = this.spawn(env);
    await solver.waitForLog((l) => l.msg === "solver started", "solver started", 60_000);
    return solver;
  }

  /** SIGTERM, and the process ends on its own with exit code 0 after logging that it stopped. */
  async stopCleanly(solver: SolverProcess): Promise<void> {
    solver.signal("SIGTERM");
    expect(await solver.exited).toEqual({ code: 0, signal: null });
    expect(solver.logLines().some((l) => l.msg === "stopped")).toBe(true);
  }

  /** The order's fill action and its transaction attempts, read from the journal as it is on disk. */
  fillOf(orderId: string): { fill: ActionRow | undefined; attempts: AttemptRow[] } {
    const journal = new Journal(this.config.journal.path);
    try {
      const fill = journal.orderActions(orderId).find((a) => a.kind === "fill");
      return { fill, attempts: fill ? journal.attemptsOfAction(fill.id) : [] };
    } finally {
      journal.close();
    }
  }

  /** Every process started, ended whatever its state. */
  async killAll(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.kill()));
  }
}

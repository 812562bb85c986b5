/**
 * The solver under load runs as its own process (`node bin/solver.js run --config <profile>`), so its
 * CPU time is read from /proc/<pid>/stat apart from everything else the benchmark runs: the localnet's
 * service and Bitcoin node and the simulated users share the benchmark's own process, and would blur an
 * in-process `process.cpuUsage()`. Its log lines go straight to a file (nothing parses them on the way).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/solver.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

export class SolverProcessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SolverProcessError";
  }
}

export interface SolverProcessOptions {
  profile: string;
  logFile: string;
  /** The solver's quote endpoint and ops server, to know when it is up. */
  quoteUrl: string;
  opsUrl: string;
  startTimeoutMs?: number;
}

export class SolverProcess {
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined = undefined;

  private constructor(private readonly options: SolverProcessOptions) {
    const log = openSync(options.logFile, "a");
    this.child = spawn(process.execPath, [BIN, "run", "--config", options.profile], {
      cwd: REPO_ROOT,
      env: { ...process.env, SOLVER_CONFIG: "" },
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  /** Starts the solver and waits until its quote endpoint answers and its first round has ended. */
  static async start(options: SolverProcessOptions): Promise<SolverProcess> {
    const solver = new SolverProcess(options);
    try {
      await solver.waitUntilUp(options.startTimeoutMs ?? 90_000);
    } catch (error) {
      await solver.stop();
      throw error;
    }
    return solver;
  }

  get pid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw new SolverProcessError("the solver process has no pid (spawn failed)");
    return pid;
  }

  /** User plus system CPU time the solver has used so far, ms (10 ms resolution). */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at ") "; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  /** Resident memory of the solver now, MiB. */
  rssMiB(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  }

  /** SIGTERM, a clean stop; SIGKILL when it does not end in time. */
  async stop(timeoutMs = 30_000): Promise<number | null> {
    if (this.exitCode !== undefined) return this.exitCode;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  private async waitUntilUp(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const quoteHealth = new URL("health", this.options.quoteUrl.replace(/quote$/, "")).toString();
    const opsHealth = `${this.options.opsUrl}/health`;
    for (;;) {
      if (this.exitCode !== undefined) {
        throw new SolverProcessError(
          `the solver exited (code ${this.exitCode}) before it was up; see ${this.options.logFile}`,
        );
      }
      if ((await answers(quoteHealth)) && (await answers(opsHealth))) return;
      if (Date.now() > deadline) {
        throw new SolverProcessError(
          `the solver was not up within ${timeoutMs} ms (quote ${quoteHealth}, ops ${opsHealth}); see ${this.options.logFile}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

/** Bytes of a SQLite database with its write-ahead log and shared-memory index. */
export function databaseBytes(path: string): number {
  let total = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      total += statSync(`${path}${suffix}`).size;
    } catch {
      // Not every file exists at every moment.
    }
  }
  return total;
}

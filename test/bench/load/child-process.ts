/**
 * A part of the system under load run as its own process, so its CPU time is read from /proc/<pid>/stat
 * apart from everything else the benchmark runs, and so it has its own event loop as it would in
 * production. Its output goes straight to a log file (nothing parses it on the way).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

export class BenchChildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BenchChildError";
  }
}

export class BenchChild {
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined = undefined;

  /** `name` says which part this is in errors; `args` go to node. */
  constructor(
    readonly name: string,
    args: readonly string[],
    readonly logFile: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    const log = openSync(logFile, "a");
    this.child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ["ignore", log, log] });
    closeSync(log);
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  get pid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw new BenchChildError(`the ${this.name} process has no pid (spawn failed)`);
    return pid;
  }

  /** User plus system CPU time the process has used so far, ms (10 ms resolution). */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at ") "; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  /** Resident memory of the process now, MiB. */
  rssMiB(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  }

  /**
   * Polls `ready` until it holds; fails at once when the process has exited, or after `timeoutMs`, and
   * then stops it, so a part that never came up is not left running.
   */
  async waitUntil(ready: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exitCode !== undefined) {
        throw new BenchChildError(
          `the ${this.name} exited (code ${this.exitCode}) before it was up; see ${this.logFile}`,
        );
      }
      if (await ready()) return;
      if (Date.now() > deadline) {
        await this.stop();
        throw new BenchChildError(
          `the ${this.name} was not up within ${timeoutMs} ms (${what}); see ${this.logFile}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Stops it and fails, naming it, unless it ended with code 0. */
  async stopCleanly(): Promise<void> {
    const code = await this.stop();
    if (code !== 0)
      throw new BenchChildError(`the ${this.name} exited with code ${code}; see ${this.logFile}`);
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
}

/** Whether a GET of `url` answers 2xx within two seconds. */
export async function answers(url: string, headers: Record<string, string> = {}): Promise<boolean> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The solver CLI as a child process (`node bin/solver.js ...`), with its output read line by line so a
 * test can wait for, or act at once on, a given log line. Each child gets its own process group, so that
 * cleanup also ends whatever it started (anvil under `solver demo`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../../../bin/solver.js", import.meta.url));

export type LogLine = Record<string, unknown>;

interface Watcher {
  match: (line: string) => boolean;
  resolve: (line: string) => void;
  reject: (error: Error) => void;
}

export class SolverProcess {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly watchers: Watcher[] = [];
  private exitedFlag = false;

  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        this.exitedFlag = true;
        resolve({ code, signal });
        // Nothing more will come: every wait fails at once, with what the child said.
        for (const watcher of this.watchers.splice(0)) {
          watcher.reject(new Error(`it exited first (code ${code}, signal ${signal})${this.tail()}`));
        }
      }),
    );
    this.readLines(this.child.stdout!, this.stdout, true);
    this.readLines(this.child.stderr!, this.stderr, false);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** stdout lines that are JSON log lines, parsed. */
  logLines(): LogLine[] {
    return this.stdout.flatMap((line) => (line.startsWith("{") ? [JSON.parse(line) as LogLine] : []));
  }

  /** Resolves with the first stdout line (past or future) that matches; fails when the child exits first. */
  waitForLine(match: (line: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
    const seen = this.stdout.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.watch(match, what, timeoutMs, "last");
  }

  /** Resolves with the first JSON log line that matches. */
  async waitForLog(match: (line: LogLine) => boolean, what: string, timeoutMs = 60_000): Promise<LogLine> {
    return JSON.parse(await this.waitForLine(logMatch(match), what, timeoutMs)) as LogLine;
  }

  /** Sends SIGKILL in the same tick the matching log line is read: nothing after it runs in the child. */
  async killOnLog(match: (line: LogLine) => boolean, what: string, timeoutMs = 60_000): Promise<LogLine> {
    return JSON.parse(await this.watch(logMatch(match), what, timeoutMs, "first")) as LogLine;
  }

  private watch(
    match: (line: string) => boolean,
    what: string,
    timeoutMs: number,
    order: "first" | "last",
  ): Promise<string> {
    const kill = order === "first";
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}${this.tail()}`)),
        timeoutMs,
      );
      const watcher: Watcher = {
        match,
        resolve: (line) => {
          if (kill) this.signalGroup("SIGKILL");
          clearTimeout(timer);
          resolve(line);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(new Error(`while waiting for ${what}: ${error.message}`));
        },
      };
      if (kill) this.watchers.unshift(watcher);
      else this.watchers.push(watcher);
    });
  }

  private tail(): string {
    return `; the solver said:\n${[...this.stderr, ...this.stdout].join("\n").slice(-2000)}`;
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.exitedFlag) this.child.kill(signal);
  }

  /** Ends the child and everything it started, whatever state it is in. */
  async kill(): Promise<void> {
    this.signalGroup("SIGKILL");
    await this.exited;
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  private readLines(stream: NodeJS.ReadableStream, into: string[], watch: boolean): void {
    let partial = "";
    stream.on("data", (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        into.push(line);
        if (process.env.TEST_LOG_ECHO) process.stderr.write(`[solver ${this.pid}] ${line}\n`);
        if (watch) this.notify(line);
      }
    });
  }

  private notify(line: string): void {
    for (const watcher of [...this.watchers]) {
      if (!watcher.match(line)) continue;
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve(line);
    }
  }
}

function logMatch(match: (line: LogLine) => boolean): (text: string) => boolean {
  return (text) => text.startsWith("{") && match(JSON.parse(text) as LogLine);
}

/**
 * The quote endpoint on a thread of its own, so that a flood of quote requests (priced, refused 401 or
 * turned away 429 alike) costs the main thread, which fills orders, nothing per request. The main thread
 * takes a snapshot of everything a quote reads (snapshot.ts) on a short interval and at once after a
 * reload, and posts it; the thread prices from it with the same code and refuses (`state_stale`) once its
 * snapshot is older than a bound. Metrics come back in batches, and at once before `/metrics` is read.
 *
 * A thread that ends unasked is logged and started again on the same port, after a pause that doubles
 * while it keeps ending soon after its start: quotes are advisory, and the fills go on without them.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { pino, type Logger } from "pino";
import type { QuoteServer } from "../quote-server.js";
import type { QuoteMetricsSink } from "./metrics-batch.js";
import type {
  FromQuoteWorker,
  LogTarget,
  QuoteEndpointSettings,
  QuoteWorkerData,
  ToQuoteWorker,
} from "./protocol.js";
import type { QuoteSnapshot } from "./snapshot.js";
import type { SecretLengthRule } from "../../chains/secret-length.js";

export interface QuoteThreadTiming {
  /** How often the main thread posts a snapshot. */
  snapshotIntervalMs: number;
  /** Older than this, the thread refuses every quote (`state_stale`). */
  maxSnapshotAgeMs: number;
  /** A balance read still under way after this long counts as failed in that snapshot. */
  balanceWaitMs: number;
  /** The same for the first snapshot, taken before the endpoint opens. */
  firstBalanceWaitMs: number;
  /** How often the thread sends its gathered metrics. */
  metricsBatchMs: number;
  /** How long `/metrics` waits for the thread's latest counts. */
  flushTimeoutMs: number;
  /** The first pause before restarting a thread that ended; doubled, up to `maxRestartDelayMs`. */
  restartDelayMs: number;
  maxRestartDelayMs: number;
}

export const DEFAULT_QUOTE_THREAD_TIMING: QuoteThreadTiming = {
  snapshotIntervalMs: 250,
  maxSnapshotAgeMs: 2_000,
  balanceWaitMs: 500,
  firstBalanceWaitMs: 30_000,
  metricsBatchMs: 1_000,
  flushTimeoutMs: 1_000,
  restartDelayMs: 1_000,
  maxRestartDelayMs: 60_000,
};

/** A thread that ran this long before ending starts again after the first pause. */
const STEADY_RUN_MS = 60_000;
/** How long `stop()` lets the thread close its endpoint before ending it. */
const STOP_TIMEOUT_MS = 5_000;

export interface QuoteThreadOptions {
  endpoint: QuoteEndpointSettings;
  /** Bytes a redeem on each chain requires of a secret (null: any), by chain name. */
  secretLengths: ReadonlyMap<string, SecretLengthRule>;
  allowUnenforcedSecretLength: boolean;
  /** Takes a snapshot on the main thread (`Pricing.quoteSnapshot`). */
  snapshot(balanceWaitMs: number): Promise<QuoteSnapshot>;
  /** Records a batch of the thread's metrics (`SolverMetrics.recordQuoteBatch`). */
  metrics: QuoteMetricsSink;
  logger: Logger;
  timing?: Partial<QuoteThreadTiming>;
}

export interface QuoteThread extends QuoteServer {
  /** Takes a snapshot and posts it now: after a reload, so that quotes never wait an interval for it. */
  refresh(): Promise<void>;
  /** Brings in the metrics the thread gathered until now. */
  flushMetrics(): Promise<void>;
  /** The thread running now; null while one is being started again. */
  readonly thread: Worker | null;
}

const FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * Compiled, the entry is the JavaScript beside this file. Run from TypeScript (tsx, vitest), Node cannot
 * load a `.ts` entry, and a worker's entry does not go through the loader tsx registers by `--import`:
 * the thread registers tsx's loader itself, then imports the entry through it.
 */
function newWorker(workerData: QuoteWorkerData): Worker {
  if (!FROM_SOURCE) return new Worker(new URL("./quote-worker.js", import.meta.url), { workerData });
  const entry = new URL("./quote-worker.ts", import.meta.url).href;
  const tsxPackage = pathToFileURL(createRequire(import.meta.url).resolve("tsx/package.json"));
  const tsxApi = new URL("dist/esm/api/index.mjs", tsxPackage).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, workerData });
}

/** The stream a pino logger writes its finished lines to. */
function logStream(logger: Logger): { write(line: string): unknown; file?: unknown; fd?: unknown } | null {
  const stream: unknown = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (typeof stream !== "object" || stream === null || !("write" in stream)) return null;
  return stream as { write(line: string): unknown };
}

/**
 * The file or descriptor the main logger writes to, so that the thread's lines go to the same place; a
 * logger writing to a stream of its own (a transport, a test's memory) gets the thread's lines relayed.
 */
function logTarget(logger: Logger): LogTarget {
  const stream = logStream(logger);
  if (typeof stream?.file === "string") return { file: stream.file };
  if (typeof stream?.fd === "number" && stream.fd >= 0) return { fd: stream.fd };
  return { relay: true };
}

class QuoteThreadHost implements QuoteThread {
  url = "";
  private worker: Worker | null = null;

  get thread(): Worker | null {
    return this.worker;
  }

  private port: number;
  private startedAtMs = 0;
  private restartDelayMs: number;
  private restartTimer: NodeJS.Timeout | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private ticking = false;
  /** The last snapshot's failure, logged once until a snapshot is taken again. */
  private snapshotError: string | null = null;
  private stopping = false;
  private nextFlushId = 1;
  private flushing: { id: number; done: () => void } | null = null;
  private flushed: Promise<void> | null = null;
  private readonly timing: QuoteThreadTiming;
  private readonly log: Logger;

  constructor(private readonly options: QuoteThreadOptions) {
    this.timing = { ...DEFAULT_QUOTE_THREAD_TIMING, ...options.timing };
    this.port = options.endpoint.port;
    this.restartDelayMs = this.timing.restartDelayMs;
    this.log = options.logger.child({ component: "quote-thread" });
  }

  async start(): Promise<void> {
    const snapshot = await this.options.snapshot(this.timing.firstBalanceWaitMs);
    this.url = await this.spawn(snapshot);
    try {
      // Starting the thread takes time (more under tsx): it opens with a newer snapshot than the first.
      await this.post();
    } catch (error) {
      await this.stop();
      throw error;
    }
    // A restart opens the same port, even when the configured one was 0 (any free port).
    this.port = Number(new URL(this.url).port);
    this.ticker = setInterval(() => void this.tick(), this.timing.snapshotIntervalMs);
    this.ticker.unref();
  }

  private spawn(snapshot: QuoteSnapshot): Promise<string> {
    const { options, timing } = this;
    const worker = newWorker({
      endpoint: { ...options.endpoint, port: this.port },
      secretLengths: options.secretLengths,
      allowUnenforcedSecretLength: options.allowUnenforcedSecretLength,
      snapshot,
      maxSnapshotAgeMs: timing.maxSnapshotAgeMs,
      metricsBatchMs: timing.metricsBatchMs,
      log: {
        level: options.logger.level,
        bindings: options.logger.bindings(),
        target: logTarget(options.logger),
      },
    });
    return new Promise<string>((resolve, reject) => {
      let listening = false;
      worker.on("message", (message: FromQuoteWorker) => {
        if (message.type === "listening") {
          listening = true;
          if (this.stopping) {
            // stop() came while this thread was starting again: it found none to end.
            void worker.terminate();
            reject(new Error("the quote endpoint was stopped while its thread started"));
            return;
          }
          this.worker = worker;
          this.startedAtMs = Date.now();
          resolve(message.url);
        } else if (message.type === "metrics") {
          this.received(message.batch, message.flushId);
        } else if (message.type === "log") {
          logStream(options.logger)?.write(message.line);
        }
      });
      worker.on("error", (error) => {
        if (!listening) reject(error);
        else this.log.error({ err: error }, "the quote thread failed");
      });
      worker.on("exit", (code) => {
        if (!listening) {
          reject(new Error(`the quote thread ended (exit code ${code}) before its endpoint opened`));
          return;
        }
        this.ended(worker, code);
      });
    });
  }

  private received(batch: Parameters<QuoteMetricsSink>[0] | null, flushId: number | null): void {
    if (batch !== null) this.options.metrics(batch);
    if (flushId !== null && this.flushing?.id === flushId) this.flushing.done();
  }

  private ended(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = null;
    this.flushing?.done();
    if (this.stopping) return;
    const ranMs = Date.now() - this.startedAtMs;
    const delayMs = ranMs >= STEADY_RUN_MS ? this.timing.restartDelayMs : this.restartDelayMs;
    this.restartDelayMs = Math.min(delayMs * 2, this.timing.maxRestartDelayMs);
    this.log.error(
      { exitCode: code, ranMs, restartInMs: delayMs },
      "the quote thread ended unasked; the quote endpoint is closed until it starts again",
    );
    this.scheduleRestart(delayMs);
  }

  private scheduleRestart(delayMs: number): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.restart(delayMs);
    }, delayMs);
  }

  private async restart(lastDelayMs: number): Promise<void> {
    if (this.stopping) return;
    try {
      const snapshot = await this.options.snapshot(this.timing.balanceWaitMs);
      if (this.stopping) return;
      await this.spawn(snapshot);
      this.log.info({ url: this.url }, "the quote thread started again");
    } catch (error) {
      const delayMs = Math.min(lastDelayMs * 2, this.timing.maxRestartDelayMs);
      this.log.error({ err: error, restartInMs: delayMs }, "the quote thread did not start again");
      if (!this.stopping) this.scheduleRestart(delayMs);
    }
  }

  private async post(): Promise<void> {
    const snapshot = await this.options.snapshot(this.timing.balanceWaitMs);
    this.send({ type: "snapshot", snapshot });
  }

  private send(message: ToQuoteWorker): void {
    this.worker?.postMessage(message);
  }

  private async tick(): Promise<void> {
    // A snapshot still being taken (a slow balance read) is not taken twice; the thread's bound covers it.
    if (this.ticking || this.worker === null) return;
    this.ticking = true;
    try {
      await this.post();
      if (this.snapshotError !== null) this.log.info("quote snapshots are taken again");
      this.snapshotError = null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.snapshotError) {
        this.log.error(
          { err: error },
          "no quote snapshot taken; quotes are refused once the last one is too old",
        );
      }
      this.snapshotError = message;
    } finally {
      this.ticking = false;
    }
  }

  refresh(): Promise<void> {
    return this.post();
  }

  flushMetrics(): Promise<void> {
    if (this.flushed !== null) return this.flushed;
    if (this.worker === null) return Promise.resolve();
    const id = this.nextFlushId++;
    this.flushed = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), this.timing.flushTimeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.flushing = null;
        this.flushed = null;
        resolve();
      };
      this.flushing = { id, done };
    });
    this.send({ type: "flush", id });
    return this.flushed;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.ticker !== null) clearInterval(this.ticker);
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (worker === null) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    worker.postMessage({ type: "stop" } satisfies ToQuoteWorker);
    await exited;
    clearTimeout(timer);
  }
}

/** Starts the thread once the first snapshot is taken; resolves when its endpoint is open. */
export async function startQuoteThread(options: QuoteThreadOptions): Promise<QuoteThread> {
  const host = new QuoteThreadHost(options);
  await host.start();
  return host;
}

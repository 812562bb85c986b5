/**
 * The quote thread's entry (a `worker_threads` Worker, started by quote-thread.ts): the quote endpoint
 * with its authentication and limits, answering from the snapshots the main thread posts, and gathering
 * its metrics for the main thread in batches. It writes its log lines to the main logger's file or
 * descriptor itself; to a main logger with a stream of its own, it sends them to the main thread.
 */
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { pino, type DestinationStream } from "pino";
import { refusingUnenforcedSecretLengths } from "../../app/secret-length-quotes.js";
import { createLogger, type LogLevel } from "../../util/logger.js";
import { startQuoteServer } from "../quote-server.js";
import { QuoteMetricsGatherer } from "./metrics-batch.js";
import type { FromQuoteWorker, LogTarget, QuoteWorkerData, ToQuoteWorker } from "./protocol.js";
import { SnapshotQuoter } from "./snapshot-quoter.js";

/** A file or descriptor is written from this thread directly, synchronously so that no line is lost. */
function logDestination(target: LogTarget): DestinationStream {
  if ("file" in target) return pino.destination({ dest: target.file, sync: true, append: true });
  if ("fd" in target) return pino.destination({ dest: target.fd, sync: true });
  return { write: (line: string) => tell({ type: "log", line }) };
}

function parent(): MessagePort {
  if (parentPort === null) throw new Error("quote-worker.ts runs as a worker thread only (quote-thread.ts)");
  return parentPort;
}

const port = parent();
const data = workerData as QuoteWorkerData;
const tell = (message: FromQuoteWorker): void => port.postMessage(message);

const destination = logDestination(data.log.target);
const logger = createLogger({ level: data.log.level as LogLevel, destination }).child({
  ...data.log.bindings,
  thread: "quote",
});
const quoter = new SnapshotQuoter(data.snapshot, data.maxSnapshotAgeMs);
const metrics = new QuoteMetricsGatherer();
const chainOf = (assetId: string): string => assetId.split(":")[0] ?? "";

const server = await startQuoteServer({
  ...data.endpoint,
  quote: refusingUnenforcedSecretLengths(
    quoter.quote,
    (assetId) => data.secretLengths.get(chainOf(assetId)),
    data.allowUnenforcedSecretLength,
  ),
  observe: metrics.observe,
  logger,
});

const batches = setInterval(() => {
  const batch = metrics.take();
  if (batch !== null) tell({ type: "metrics", batch, flushId: null });
}, data.metricsBatchMs);

async function stop(): Promise<void> {
  clearInterval(batches);
  await server.stop();
  tell({ type: "metrics", batch: metrics.take(), flushId: null });
  tell({ type: "stopped" });
  port.close();
}

port.on("message", (message: ToQuoteWorker) => {
  switch (message.type) {
    case "snapshot":
      quoter.update(message.snapshot);
      return;
    case "flush":
      tell({ type: "metrics", batch: metrics.take(), flushId: message.id });
      return;
    case "stop":
      void stop();
      return;
  }
});
tell({ type: "listening", url: server.url });

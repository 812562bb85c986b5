/** What the main thread and the quote thread tell each other (structured clone: plain data, bigints, maps). */
import type { QuoteEndpointSettings } from "../quote-server.js";
import type { QuoteMetricsBatch } from "./metrics-batch.js";
import type { QuoteSnapshot } from "./snapshot.js";
import type { SecretLengthRule } from "../../chains/secret-length.js";

export type { QuoteEndpointSettings };

/** Where the thread writes its log lines: the file or descriptor the main logger writes to. */
export type LogTarget = { file: string } | { fd: number } | { relay: true };

export interface QuoteWorkerData {
  endpoint: QuoteEndpointSettings;
  /** Bytes a redeem on each chain requires of a secret (null: any), by chain name. */
  secretLengths: ReadonlyMap<string, SecretLengthRule>;
  allowUnenforcedSecretLength: boolean;
  /** The thread opens the endpoint with this one; there is always a snapshot to quote from. */
  snapshot: QuoteSnapshot;
  maxSnapshotAgeMs: number;
  /** How often gathered metrics are sent to the main thread. */
  metricsBatchMs: number;
  /** The main logger's level, bindings and destination (a file, a descriptor, or itself), for the thread's own. */
  log: { level: string; bindings: Record<string, unknown>; target: LogTarget };
}

export type ToQuoteWorker =
  | { type: "snapshot"; snapshot: QuoteSnapshot }
  /** Send what was gathered now (answered by a `metrics` message with the same id). */
  | { type: "flush"; id: number }
  /** Close the endpoint, send the last metrics, and end. */
  | { type: "stop" };

export type FromQuoteWorker =
  | { type: "listening"; url: string }
  /** A finished log line, for a main logger that writes to a stream of its own (LogTarget `relay`). */
  | { type: "log"; line: string }
  | { type: "metrics"; batch: QuoteMetricsBatch | null; flushId: number | null }
  | { type: "stopped" };

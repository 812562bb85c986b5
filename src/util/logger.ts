/**
 * The solver's pino logger. Values under secret-bearing keys are censored at any depth up to
 * REDACT_DEPTH, and bigints are written as decimal strings so that log consumers never lose precision.
 * Key redaction works by key name: never put a secret into a message string.
 *
 * URL credentials are removed wherever they appear, because RPC clients quote the failing URL (with the
 * provider's API key in its path or query) in their errors: the `err` serializer redacts the message,
 * stack and every string field of an error, and every finished line passes through `redactUrlsInText`
 * before it is written, which also covers messages, child bindings and fields under any key.
 */
import { pino, stdSerializers, type DestinationStream, type Logger } from "pino";
import { redactUrlsDeep, redactUrlsInText } from "../config/redact-url.js";

export type { Logger };

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";

export const REDACTED = "[redacted]";

/** Key names whose values never reach a log line. */
export const SECRET_LOG_KEYS = [
  ...["privateKey", "privateKeys", "secretKey", "relayerSecretKey", "keys", "secret", "preimage", "mnemonic"],
  ...["appId", "password", "rpcPassword", "authorization", "Authorization", "service-app-id", "quoteSecret"],
] as const;

/** Nesting levels below the log object that redaction reaches (`a.b.c.d.e.privateKey`). */
export const REDACT_DEPTH = 5;

/** pino/redact paths for every secret key at depths 0..REDACT_DEPTH, e.g. `*.*.privateKey`. */
export function redactPaths(depth = REDACT_DEPTH): string[] {
  const paths: string[] = [];
  for (const key of SECRET_LOG_KEYS) {
    const plain = /^[A-Za-z_$][\w$]*$/.test(key);
    for (let level = 0; level <= depth; level++) {
      const prefix = Array.from({ length: level }, () => "*").join(".");
      if (level === 0) paths.push(plain ? key : `["${key}"]`);
      else paths.push(plain ? `${prefix}.${key}` : `${prefix}["${key}"]`);
    }
  }
  return paths;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A copy with bigints as strings; only plain objects and arrays are copied, so Errors keep their type. */
export function bigintSafe(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((item) => bigintSafe(item, seen));
  }
  if (!isPlainObject(value)) return value;
  seen.add(value);
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) result[key] = bigintSafe(inner, seen);
  return result;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when absent. */
  destination?: DestinationStream;
  /** Value of the `name` field on every line. */
  name?: string;
}

/** Levels of an error's fields copied into the log line; deeper values are summarised. */
const ERROR_COPY_DEPTH = 6;

/**
 * Plain data of a serialized error: pino's serializer returns objects with a prototype of its own, and
 * error fields may be class instances, which `redactUrlsDeep` would otherwise pass over.
 */
function plainData(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) return "[Circular]";
  if (depth === 0) return Array.isArray(value) ? "[Array]" : "[Object]";
  ancestors.add(value);
  const copy = Array.isArray(value)
    ? value.map((item) => plainData(item, depth - 1, ancestors))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainData(v, depth - 1, ancestors)]));
  ancestors.delete(value);
  return copy;
}

/** pino's error serializer, with URL credentials removed from the message, the stack and every field. */
export function redactingErrorSerializer(error: unknown): unknown {
  if (!(error instanceof Error)) return redactUrlsDeep(error);
  return redactUrlsDeep(plainData(stdSerializers.err(error), ERROR_COPY_DEPTH, new Set()));
}

export function createLogger(options: LoggerOptions): Logger {
  const pinoOptions = {
    level: options.level,
    ...(options.name === undefined ? {} : { name: options.name }),
    redact: { paths: redactPaths(), censor: REDACTED },
    serializers: { err: redactingErrorSerializer, error: redactingErrorSerializer },
    formatters: {
      log: (object: Record<string, unknown>) => bigintSafe(object) as Record<string, unknown>,
    },
    hooks: { streamWrite: redactUrlsInText },
  };
  return options.destination === undefined ? pino(pinoOptions) : pino(pinoOptions, options.destination);
}

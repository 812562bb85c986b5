/**
 * A JSON-safe view of a configuration for printing and logging: bigints become decimal strings, keys,
 * the app id, the quote endpoint's secret and node passwords become "[redacted]", and URLs are shown as
 * scheme, host and port.
 */
import { redactUrl } from "./redact-url.js";
import type { SolverConfig } from "./types.js";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const REDACTED = "[redacted]";

/** Keys whose values are secrets wherever they appear. */
const SECRET_KEYS = new Set(["appId", "rpcPassword", "password", "privateKey", "secret", "quoteSecret"]);
/** Keys whose every value is a secret. */
const SECRET_GROUPS = new Set(["keys"]);

function redactValue(value: unknown, secret: boolean): JsonValue {
  if (typeof value === "string") {
    if (secret) return value === "" ? "" : REDACTED;
    return redactUrl(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (typeof value === "object") {
    const result: Record<string, JsonValue> = {};
    for (const [key, inner] of Object.entries(value)) {
      result[key] = redactValue(inner, secret || SECRET_KEYS.has(key) || SECRET_GROUPS.has(key));
    }
    return result;
  }
  return null;
}

export function redactConfig(config: SolverConfig): JsonValue {
  return redactValue(config, false);
}

/**
 * Pure value checks shared by the convict formats and the structural validators. Each returns the
 * problem as text (without the key path, which the caller knows) or null when the value is fine.
 * Messages quote the offending value unless it may be a secret.
 */
import { redactUrl } from "./redact-url.js";

/** Short, printable form of a value for an error message. */
export function describeValue(value: unknown): string {
  // A 32-byte hex string in the wrong place may well be a private key: never quote one.
  if (typeof value === "string" && /^(0x)?[0-9a-fA-F]{64}$/.test(value.trim()))
    return "a 32-byte hex value (not shown)";
  if (typeof value === "string")
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "bigint") return value.toString();
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (value !== null && typeof value === "object") return "an object";
  return JSON.stringify(value) ?? String(value);
}

/** Integer amount in smallest units: a decimal string of digits, a JSON integer within 2^53, or a bigint. */
export function parseAmount(value: unknown): bigint | { problem: string } {
  if (typeof value === "bigint" && value >= 0n) return value;
  if (typeof value === "string" && /^[0-9]+$/.test(value)) return BigInt(value);
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "number" && Number.isInteger(value) && value > 0) {
    return {
      problem: `${describeValue(value)} is above 2^53 and loses precision; write it as a decimal string`,
    };
  }
  return { problem: `${describeValue(value)} must be an integer amount in smallest units` };
}

export function checkHttpUrl(value: unknown): string | null {
  if (typeof value !== "string") return `${describeValue(value)} is not an http(s) URL`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${describeValue(redactUrl(value))} is not an http(s) URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `${describeValue(redactUrl(value))} is not an http(s) URL`;
  }
  return null;
}

export function checkInteger(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): string | null {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    return `${describeValue(value)} must be an integer`;
  }
  if (value < min) return `${value} must be at least ${min}`;
  if (value > max) return `${value} must be at most ${max}`;
  return null;
}

export function checkOneOf(value: unknown, allowed: readonly string[]): string | null {
  if (typeof value === "string" && allowed.includes(value)) return null;
  return `${describeValue(value)} must be one of ${allowed.join(", ")}`;
}

/** Positive decimal number as a string, e.g. a USD price "65000.25". */
export function checkDecimalString(value: unknown): string | null {
  if (typeof value !== "string" || !/^[0-9]+(\.[0-9]+)?$/.test(value)) {
    return `${describeValue(value)} must be a decimal string such as "1.25"`;
  }
  if (/^[0.]+$/.test(value)) return `${describeValue(value)} must be greater than zero`;
  return null;
}

export function checkNonEmptyString(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "")
    return `${describeValue(value)} must be a non-empty string`;
  return null;
}

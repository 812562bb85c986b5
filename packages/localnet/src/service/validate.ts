/** Checks of request input that answer 400 with the field and the problem named. */
import { badRequest } from "./errors.js";

const DIGITS = /^[0-9]+$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw badRequest(`${field} must be a JSON object`);
  return value;
}

export function requireString(record: Record<string, unknown>, key: string, field: string): string {
  const value = record[key];
  if (typeof value !== "string" || value === "")
    throw badRequest(`${field} is required (a non-empty string)`);
  return value;
}

/** A decimal string of smallest units, > 0. */
export function parseAmount(value: unknown, field: string): bigint {
  if (typeof value !== "string" || !DIGITS.test(value) || BigInt(value) === 0n) {
    throw badRequest(
      `${field} must be a decimal string of smallest units greater than 0, got ${show(value)}`,
    );
  }
  return BigInt(value);
}

export function parseHex64(value: unknown, field: string): string {
  if (typeof value !== "string" || !HEX_64.test(value)) {
    throw badRequest(`${field} must be 64 hexadecimal characters without 0x, got ${show(value)}`);
  }
  return value.toLowerCase();
}

/** Basis points 0..10000, given as a number or a digit string (query parameters). */
export function parseBps(value: unknown, field: string): number {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !DIGITS.test(text) || Number(text) > 10_000) {
    throw badRequest(
      `${field} must be an integer number of basis points from 0 to 10000, got ${show(value)}`,
    );
  }
  return Number(text);
}

export function parsePositiveInt(value: string | null, field: string, fallback: number): number {
  if (value === null) return fallback;
  if (!DIGITS.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw badRequest(`${field} must be an integer >= 1, got ${show(value)}`);
  }
  return Number(value);
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

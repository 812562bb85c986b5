/**
 * Reads typed values out of one raw (parsed JSON) object, recording a problem named by its full key path
 * for every value that is missing or wrong. On a problem it returns a placeholder; the loader throws
 * before any placeholder can reach the solver.
 */
import type { Problems } from "../errors.js";
import { checkHttpUrl, checkInteger, checkOneOf, describeValue, parseAmount } from "./checks.js";

export type RawObject = Record<string, unknown>;

export function isRawObject(value: unknown): value is RawObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function keyPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

interface Optional<T> {
  /** Used when the key is absent; without it the key is required. */
  default?: T;
}

export class Fields {
  constructor(
    readonly problems: Problems,
    readonly obj: RawObject,
    readonly path: string,
  ) {}

  at(key: string | number): string {
    return keyPath(this.path, key);
  }

  problem(key: string | number, message: string): void {
    this.problems.add(this.at(key), message);
  }

  /** The raw value, or undefined after recording "missing" when required. */
  private value<T>(key: string, options: Optional<T>): unknown {
    const value = this.obj[key];
    if (value !== undefined) return value;
    if (options.default === undefined) this.problem(key, "is required");
    return options.default;
  }

  string(key: string, options: Optional<string> & { pattern?: RegExp; hint?: string } = {}): string {
    const value = this.value(key, options);
    if (value === undefined) return "";
    if (typeof value !== "string") {
      this.problem(key, `${describeValue(value)} must be a string`);
      return "";
    }
    if (options.pattern !== undefined && !options.pattern.test(value)) {
      this.problem(key, `${describeValue(value)} ${options.hint ?? `must match ${String(options.pattern)}`}`);
    }
    return value;
  }

  integer(key: string, min: number, max?: number, options: Optional<number> = {}): number {
    const value = this.value(key, options);
    if (value === undefined) return 0;
    const problem = checkInteger(value, min, max);
    if (problem !== null) this.problem(key, problem);
    return typeof value === "number" ? value : 0;
  }

  amount(key: string, options: Optional<bigint> & { min?: bigint } = {}): bigint {
    const value = this.value(key, options);
    if (value === undefined) return 0n;
    const parsed = parseAmount(value);
    if (typeof parsed !== "bigint") {
      this.problem(key, parsed.problem);
      return 0n;
    }
    if (options.min !== undefined && parsed < options.min) {
      this.problem(key, `${parsed} must be at least ${options.min}`);
    }
    return parsed;
  }

  boolean(key: string, options: Optional<boolean> = {}): boolean {
    const value = this.value(key, options);
    if (value === undefined) return false;
    if (typeof value !== "boolean") {
      this.problem(key, `${describeValue(value)} must be true or false`);
      return options.default ?? false;
    }
    return value;
  }

  httpUrl(key: string, options: Optional<string> = {}): string {
    const value = this.value(key, options);
    if (value === undefined || value === "") return "";
    const problem = checkHttpUrl(value);
    if (problem !== null) this.problem(key, problem);
    return typeof value === "string" ? value : "";
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], options: Optional<T> = {}): T {
    const value = this.value(key, options);
    const fallback = allowed[0] as T;
    if (value === undefined) return fallback;
    const problem = checkOneOf(value, allowed);
    if (problem !== null) this.problem(key, problem);
    return problem === null ? (value as T) : fallback;
  }

  /** A required array; `nonEmpty` adds a problem for `[]`. */
  array(key: string, nonEmpty: boolean): unknown[] {
    const value = this.value(key, {});
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      this.problem(key, `${describeValue(value)} must be an array`);
      return [];
    }
    if (nonEmpty && value.length === 0) this.problem(key, "must not be empty");
    return value;
  }

  /** Reports keys this object does not know, which are usually typos of real ones. */
  onlyKeys(allowed: readonly string[], what: string): void {
    for (const key of Object.keys(this.obj)) {
      if (!allowed.includes(key)) this.problem(key, `is not a setting of ${what}`);
    }
  }
}

/** Fields of `value` when it is an object; otherwise records the problem and returns null. */
export function fieldsOf(problems: Problems, value: unknown, path: string, what: string): Fields | null {
  if (isRawObject(value)) return new Fields(problems, value, path);
  problems.add(path, `${describeValue(value)} must be an object (${what})`);
  return null;
}

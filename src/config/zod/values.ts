/**
 * Zod schemas of single setting values, with the messages operators see: each names what was wrong
 * and what is expected (`5 must be at least 100`), quoting the value unless it may be a secret. A value
 * that fails yields a placeholder beside its issue, so checks across fields still run and every problem
 * of a load is reported at once; the loader throws before a placeholder can reach the solver.
 */
import { z } from "zod";
import { checkHttpUrl, checkInteger, checkOneOf, describeValue, parseAmount } from "../checks.js";
import { mapKey } from "./issues.js";

/** What a value check gives: the value, or the problem with it. */
export type Checked<T> = { value: T } | { problem: string };

interface Optional<T> {
  /** Used when the key is absent; without it the key is required. */
  default?: T;
}

/**
 * A setting read by `check`: "is required" when absent without a default, the check's problem when it
 * fails (with `placeholder` in its place).
 */
export function setting<T>(
  check: (value: unknown) => Checked<T>,
  placeholder: T,
  options: Optional<T> = {},
): z.ZodType<T, unknown> {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      if (value === undefined) {
        if (options.default !== undefined) return options.default;
        ctx.addIssue({ code: "custom", message: "is required", continue: true });
        return placeholder;
      }
      const checked = check(value);
      if ("value" in checked) return checked.value;
      ctx.addIssue({ code: "custom", message: checked.problem, continue: true });
      return placeholder;
    });
}

const fromProblem = <T>(value: T, problem: string | null): Checked<T> =>
  problem === null ? { value } : { problem };

export function integer(min: number, max?: number, options: Optional<number> = {}) {
  return setting((v) => fromProblem(v as number, checkInteger(v, min, max)), 0, options);
}

/** An integer amount in smallest units (decimal string, safe JSON integer or bigint), at least `min`. */
export function amount(options: Optional<bigint> & { min?: bigint } = {}) {
  return setting<bigint>(
    (v) => {
      const parsed = parseAmount(v);
      if (typeof parsed !== "bigint") return parsed;
      if (options.min !== undefined && parsed < options.min)
        return { problem: `${parsed} must be at least ${options.min}` };
      return { value: parsed };
    },
    0n,
    options,
  );
}

export function text(options: Optional<string> & { pattern?: RegExp; hint?: string } = {}) {
  return setting<string>(
    (v) => {
      if (typeof v !== "string") return { problem: `${describeValue(v)} must be a string` };
      if (options.pattern !== undefined && !options.pattern.test(v)) {
        return { problem: `${describeValue(v)} ${options.hint ?? `must match ${String(options.pattern)}`}` };
      }
      return { value: v };
    },
    "",
    options,
  );
}

export function oneOf<const T extends string>(allowed: readonly T[], options: Optional<T> = {}) {
  return setting<T>((v) => fromProblem(v as T, checkOneOf(v, allowed)), allowed[0] as T, options);
}

export function flag(options: Optional<boolean> = {}) {
  return setting<boolean>(
    (v) => (typeof v === "boolean" ? { value: v } : { problem: `${describeValue(v)} must be true or false` }),
    options.default ?? false,
    options,
  );
}

/** An http(s) URL; with a default, "" also stands for the default's absence of a URL. */
export function httpUrl(options: Optional<string> = {}) {
  return setting<string>(
    (v) => (v === "" ? { value: "" } : fromProblem(typeof v === "string" ? v : "", checkHttpUrl(v))),
    "",
    options,
  );
}

/** A required list of items, each checked at its index; `nonEmpty` refuses `[]`. */
export function list<T>(item: z.ZodType<T, unknown>, nonEmpty: boolean) {
  return setting<unknown[]>((v) => {
    if (!Array.isArray(v)) return { problem: `${describeValue(v)} must be an array` };
    if (nonEmpty && v.length === 0) return { problem: "must not be empty" };
    return { value: v };
  }, []).pipe(z.array(item));
}

/** A list of http(s) URLs; an empty string in it is no URL. */
export const urlList = (nonEmpty: boolean) =>
  list(
    setting<string>((v) => fromProblem(typeof v === "string" ? v : "", checkHttpUrl(v)), ""),
    nonEmpty,
  );

/**
 * `value` read by `schema` inside another schema's check, its issues added under `path`; `placeholder`
 * where it fails.
 */
export function parseNested<T>(
  ctx: z.RefinementCtx,
  schema: z.ZodType<T, unknown>,
  value: unknown,
  placeholder: T,
  path: readonly PropertyKey[] = [],
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [key]) : [[]];
    for (const key of keys) {
      ctx.addIssue({ code: "custom", message: issue.message, path: [...path, ...issue.path, ...key] });
    }
  }
  return placeholder;
}

/** The problem of a map key that is no configured asset. */
export const NOT_AN_ASSET = "is not a configured asset (<chain>:<symbol> of chains[].assets)";

/**
 * A map from configured asset id to a value read by `value`; `what` says what the map holds when it is
 * not an object. Ids that are no configured asset are reported and left out.
 */
export function assetMap<T>(
  value: z.ZodType<T, unknown>,
  placeholder: T,
  assetIds: ReadonlySet<string>,
  what: string,
) {
  return z.unknown().transform((raw, ctx) => {
    const result: Record<string, T> = {};
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      ctx.addIssue({ code: "custom", message: `${describeValue(raw)} must be an object of ${what}` });
      return result;
    }
    for (const [id, entry] of Object.entries(raw)) {
      if (!assetIds.has(id)) ctx.addIssue({ code: "custom", path: [mapKey(id)], message: NOT_AN_ASSET });
      else result[id] = parseNested(ctx, value, entry, placeholder, [mapKey(id)]);
    }
    return result;
  });
}

/** Object schemas of the configuration: every key known, every problem named by its key. */
import { z } from "zod";
import { describeValue } from "../checks.js";
import { isRawObject } from "../raw.js";

/**
 * An object of exactly these settings (`what` names it in messages). A key it does not know is usually
 * a typo of one it does, so it is reported, not ignored.
 */
export function settingsObject<S extends z.ZodRawShape>(shape: S, what: string) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `is not a setting of ${what}`
        : `${describeValue(issue.input)} must be an object (${what})`,
  });
}

/** Runs a check across fields even when some of them failed (their placeholders stand in). */
export const always = { when: () => true } as const;

/** Runs a check across fields when the object itself was one (its fields may still have failed). */
export const whenObject = {
  when: (payload: { value: unknown }) => isRawObject(payload.value),
} as const;

/**
 * Exchange prices as the exchanges send them: JSON strings of decimal digits. A price sent as a JSON
 * number is refused rather than read through a float, which could not hold it exactly.
 */
import { z } from "zod";
import { parseDecimal } from "../decimal.js";

const DECIMAL = /^\d+(\.\d+)?$/;

export const priceText = z
  .string("must be a decimal string (a JSON number would lose precision)")
  .regex(DECIMAL, 'must be decimal digits such as "65000.12"')
  // Zod runs every check; a malformed text is the regex's to report.
  .refine((text) => !DECIMAL.test(text) || parseDecimal(text).num > 0n, "must be greater than zero");

/** The zod issues of a rejected answer as one line naming each path. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? "answer" : issue.path.join(".")}: ${issue.message}`)
    .join("; ");
}

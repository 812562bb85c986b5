import type { Decision, PlanInput } from "../plan-types.js";

/** Amounts and assets must still be what the solver would quote, within its limits and inventory. */
export function checkQuote({ quoteCheck }: PlanInput): Decision | null {
  if (quoteCheck === null) {
    return { outcome: "wait", reason: "quote_not_checked", detail: "pricing has not judged this order yet" };
  }
  if (!quoteCheck.ok)
    return { outcome: quoteCheck.outcome, reason: quoteCheck.reason, detail: quoteCheck.detail };
  return null;
}

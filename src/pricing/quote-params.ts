/** Validation of the quote endpoint's query string; every problem is named so a caller can fix it at once. */
import type { QuoteRequest } from "./quote.js";

const ASSET_ID = /^[^:\s]+:[^:\s]+$/;
const DIGITS = /^\d+$/;
/** uint256 has 78 decimal digits; anything longer cannot be a real amount. */
const MAX_AMOUNT_DIGITS = 78;

export type ParsedQuoteParams = { ok: true; request: QuoteRequest } | { ok: false; problems: string[] };

function assetProblem(name: string, value: string | null): string | undefined {
  if (value === null || value === "") return `${name} is required (an asset id <chain>:<asset>)`;
  if (!ASSET_ID.test(value))
    return `${name} must be an asset id <chain>:<asset>, got ${JSON.stringify(value)}`;
  return undefined;
}

function amountProblem(value: string | null): string | undefined {
  if (value === null || value === "") return "from_amount is required (a positive integer in smallest units)";
  if (!DIGITS.test(value) || value.length > MAX_AMOUNT_DIGITS || BigInt(value) === 0n) {
    return `from_amount must be a positive integer in smallest units, got ${JSON.stringify(value.slice(0, 100))}`;
  }
  return undefined;
}

export function parseQuoteParams(params: URLSearchParams): ParsedQuoteParams {
  const from = params.get("from");
  const to = params.get("to");
  const amount = params.get("from_amount");
  const problems = [assetProblem("from", from), assetProblem("to", to), amountProblem(amount)].filter(
    (problem): problem is string => problem !== undefined,
  );
  if (problems.length > 0 || from === null || to === null || amount === null) return { ok: false, problems };
  return { ok: true, request: { from, to, fromAmount: BigInt(amount) } };
}

/**
 * The service's side of the solver quote protocol: `GET {quoteUrl}?from=&to=&from_amount=`, signed when the
 * solver has a quote secret (docs/solver-quote-api.md), answered by `{status: "Ok", result: QuoteItem}` or
 * `{status: "Error", error}` (docs/service-api-choices.md).
 */
import type { AssetAmount, QuoteItem } from "htlc-solver/orderbook/types.js";
import type { LocalServiceSolverConfig } from "../config.js";
import { signQuoteRequest } from "htlc-solver/pricing/quote-signature.js";
import { normalizeSolverId } from "../registry.js";
import { pooledGetText } from "./pooled-get.js";

export interface QuoteRequest {
  from: string;
  to: string;
  fromAmount: bigint;
  /** The client's tolerance in basis points, passed on; a solver may ignore it. */
  slippage?: number;
}

export type SolverQuoteOutcome =
  | { kind: "quote"; quote: QuoteItem }
  /** The solver answered with an error: it does not quote this. */
  | { kind: "refused"; reason: string }
  /** The solver answered something that is not a quote for this request. */
  | { kind: "invalid"; reason: string }
  | { kind: "unreachable"; reason: string };

export async function requestSolverQuote(
  solver: LocalServiceSolverConfig,
  request: QuoteRequest,
  timeoutMs: number,
): Promise<SolverQuoteOutcome> {
  const url = new URL(solver.quoteUrl);
  url.searchParams.set("from", request.from);
  url.searchParams.set("to", request.to);
  url.searchParams.set("from_amount", request.fromAmount.toString());
  if (request.slippage !== undefined) url.searchParams.set("slippage", String(request.slippage));
  let text: string;
  try {
    const signature = solver.quoteSecret === undefined ? {} : signQuoteRequest(solver.quoteSecret, url);
    text = await pooledGetText(url, timeoutMs, { accept: "application/json", ...signature });
  } catch (error) {
    return { kind: "unreachable", reason: error instanceof Error ? error.message : String(error) };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: "invalid", reason: "answer is not JSON" };
  }
  return interpret(body, solver, request);
}

function interpret(
  body: unknown,
  solver: LocalServiceSolverConfig,
  request: QuoteRequest,
): SolverQuoteOutcome {
  if (!isObject(body)) return { kind: "invalid", reason: "answer is not a JSON object" };
  if (body.status === "Error") {
    return { kind: "refused", reason: typeof body.error === "string" ? body.error : "no reason given" };
  }
  if (body.status !== "Ok" || !isQuoteItem(body.result)) {
    return { kind: "invalid", reason: "answer is neither a quote envelope nor an error envelope" };
  }
  const quote = body.result;
  if (quote.source.asset !== request.from || quote.destination.asset !== request.to) {
    return { kind: "invalid", reason: `quote is for ${quote.source.asset} -> ${quote.destination.asset}` };
  }
  if (quote.source.amount !== request.fromAmount.toString()) {
    return { kind: "invalid", reason: `quote is for source amount ${quote.source.amount}` };
  }
  // The registered id is authoritative: orders name the solver by it.
  return { kind: "quote", quote: { ...quote, solver_id: normalizeSolverId(solver.id) } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const DIGITS = /^[0-9]+$/;

function isAssetAmount(value: unknown): value is AssetAmount {
  return (
    isObject(value) &&
    typeof value.asset === "string" &&
    typeof value.amount === "string" &&
    DIGITS.test(value.amount) &&
    typeof value.display === "string" &&
    typeof value.value === "string"
  );
}

function isQuoteItem(value: unknown): value is QuoteItem {
  return (
    isObject(value) &&
    isAssetAmount(value.source) &&
    isAssetAmount(value.destination) &&
    Number.isInteger(value.estimated_time) &&
    Number.isInteger(value.slippage) &&
    Number.isInteger(value.fee) &&
    typeof value.fixed_fee === "string"
  );
}

/**
 * Which JSON-RPC error replies mean "this endpoint failed" rather than "the node's answer is no".
 * Providers signal rate limits in the reply body as often as by HTTP 429, with their own codes and
 * words; a node behind the others says it does not know the block asked for. Both are worth another
 * endpoint. Everything else (reverts, nonce errors, "not found") is an answer and stays one.
 */
import type { FaultKind } from "./errors.js";

/** -32005 is "limit exceeded": a rate limit, except where a provider uses it for an oversized query. */
const LIMIT_EXCEEDED = -32005;
/** Codes providers use for rate limits (429 in the body, QuickNode's -32007). */
const RATE_LIMIT_CODES = new Set([429, -32007]);
const RATE_LIMIT_WORDS =
  /rate.?limit|too many requests|request limit|exceeded.*(quota|capacity|compute units|throughput|credits)|capacity exceeded|daily limit/i;
const OVERSIZED_QUERY =
  /returned more than|block range|range (is )?too|too many (results|logs|blocks)|response size/i;
const INTERNAL_ERROR = -32603;
const UNAVAILABLE_WORDS =
  /header not found|missing trie node|unknown block|timed? ?out|temporarily unavailable|service unavailable|bad gateway|upstream|internal server error|try again later|no healthy/i;

export interface RpcErrorContext {
  /** The error carries data (an EVM revert's): it is an answer. */
  hasData: boolean;
  /**
   * Whether "internal error" (-32603) means the endpoint failed. True for EVM providers; bitcoind
   * answers real errors with it ("block not accepted"), so there it is an answer.
   */
  internalErrorIsFault: boolean;
}

export function faultKindOfRpcError(
  code: number,
  message: string,
  context: RpcErrorContext,
): FaultKind | null {
  if (/revert/i.test(message)) return null;
  if (RATE_LIMIT_CODES.has(code) || RATE_LIMIT_WORDS.test(message)) return "rate-limited";
  if (code === LIMIT_EXCEEDED && !OVERSIZED_QUERY.test(message)) return "rate-limited";
  if (UNAVAILABLE_WORDS.test(message)) return "unavailable";
  // An internal error without data is the endpoint's trouble; with data it carries an answer.
  if (code === INTERNAL_ERROR && context.internalErrorIsFault && !context.hasData) return "unavailable";
  return null;
}

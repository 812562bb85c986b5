/**
 * Errors of the RPC endpoint pool. An `EndpointFault` says an endpoint failed to answer (unreachable,
 * timed out, rate-limited, refused us) or answered a head read from the past (stale): another endpoint
 * may answer the same request. Anything else an
 * endpoint call throws is the node's answer (a revert, "transaction not found", a rejected transaction)
 * and is passed to the caller unchanged. Messages name endpoints by their redacted URL only.
 */
import { redactUrlsInText } from "../../config/redact-url.js";
import { CannotAnswerNowError } from "../seam-errors.js";

export type FaultKind = "rate-limited" | "timeout" | "unavailable" | "refused" | "stale";

export interface FaultDetails {
  /** HTTP status when the endpoint answered with one. */
  status?: number | null;
  /** How long the endpoint asked us to stay away (Retry-After), when it said. */
  retryAfterMs?: number | null;
}

const KIND_TEXT: Record<FaultKind, string> = {
  "rate-limited": "rate-limited",
  timeout: "timed out",
  unavailable: "unavailable",
  refused: "refused the request (check the endpoint's credentials and plan)",
  stale: "answered with a stale head",
};

export class EndpointFault extends Error {
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  readonly detail: string;

  constructor(
    /** The endpoint's redacted URL. */
    readonly endpoint: string,
    readonly kind: FaultKind,
    detail: string,
    details: FaultDetails = {},
  ) {
    const safeDetail = redactUrlsInText(detail);
    const status = details.status ?? null;
    super(`${endpoint} ${KIND_TEXT[kind]}${status === null ? "" : ` (HTTP ${status})`}: ${safeDetail}`);
    this.name = "EndpointFault";
    this.detail = safeDetail;
    this.status = status;
    this.retryAfterMs = details.retryAfterMs ?? null;
  }
}

/** No endpoint of a chain answered a request within its attempts; each fault and skip is listed. */
export class RpcUnavailableError extends CannotAnswerNowError {
  constructor(
    readonly chain: string,
    /** What was asked, e.g. `eth_call` or `getblockcount`. */
    readonly what: string,
    readonly faults: readonly EndpointFault[],
    /** Why endpoints that were not asked were passed over (cooling down, behind the best head). */
    readonly skipped: readonly string[],
  ) {
    const tried =
      faults.length === 0 ? "no endpoint could be asked" : faults.map((f) => f.message).join("; ");
    const passed = skipped.length === 0 ? "" : `; passed over: ${skipped.join("; ")}`;
    super(`${what} on ${chain} failed after ${faults.length} attempt(s): ${tried}${passed}`);
    this.name = "RpcUnavailableError";
  }

  /** HTTP status of the last fault that had one. */
  get lastStatus(): number | null {
    for (let i = this.faults.length - 1; i >= 0; i--) {
      const status = this.faults[i]?.status ?? null;
      if (status !== null) return status;
    }
    return null;
  }
}

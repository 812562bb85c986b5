/**
 * Who may ask the quote endpoint (config quote.auth): only callers that sign each request with the shared
 * secret (quote-signature.ts), with a timestamp within the allowed clock skew and a nonce not used before.
 * The signature is checked first, so a caller without the secret learns nothing but `bad_signature`.
 */
import type { IncomingHttpHeaders } from "node:http";
import { NONCE_PATTERN, SIGNATURE_HEADERS, signatureMatches, type SignedParts } from "./quote-signature.js";

export interface QuoteAuthSettings {
  /** The shared secret; "" leaves the endpoint open. */
  secret: string;
  /** How far a request's timestamp may be from the solver's clock, either way. */
  maxClockSkewMs: number;
}

export const DEFAULT_MAX_CLOCK_SKEW_MS = 30_000;

export type AuthFailure =
  "missing_signature" | "malformed_signature" | "bad_signature" | "stale_timestamp" | "replayed_nonce";

export type AuthVerdict = { ok: true; nonce: string } | { ok: false; reason: AuthFailure; message: string };

/** A nonce is remembered this much longer than a request carrying it could pass the skew check. */
const NONCE_MARGIN_MS = 1_000;

const TIMESTAMP_PATTERN = /^[0-9]{1,16}$/;
const SIGNATURE_PATTERN = /^[0-9a-fA-F]{64}$/;

function refuse(reason: AuthFailure, message: string): AuthVerdict {
  return { ok: false, reason, message };
}

export class QuoteAuthenticator {
  /** Nonces of admitted requests, oldest first, with when each may be forgotten. */
  private readonly seen = new Map<string, number>();
  private readonly now: () => number;

  constructor(
    private readonly settings: QuoteAuthSettings,
    now: () => number = Date.now,
  ) {
    this.now = now;
  }

  /** Checks a request's signature, timestamp and nonce; the nonce is used up only by `admit`. */
  verify(method: string, target: string, headers: IncomingHttpHeaders): AuthVerdict {
    const timestamp = headers[SIGNATURE_HEADERS.timestamp];
    const nonce = headers[SIGNATURE_HEADERS.nonce];
    const signature = headers[SIGNATURE_HEADERS.signature];
    if (timestamp === undefined && nonce === undefined && signature === undefined) {
      return refuse(
        "missing_signature",
        `this endpoint answers signed requests only: send ${Object.values(SIGNATURE_HEADERS).join(", ")}`,
      );
    }
    if (
      typeof timestamp !== "string" ||
      typeof nonce !== "string" ||
      typeof signature !== "string" ||
      !TIMESTAMP_PATTERN.test(timestamp) ||
      !NONCE_PATTERN.test(nonce) ||
      !SIGNATURE_PATTERN.test(signature)
    ) {
      return refuse(
        "malformed_signature",
        `each of ${Object.values(SIGNATURE_HEADERS).join(", ")} once: unix milliseconds, ` +
          "16 to 64 of [A-Za-z0-9_-], 64 hex digits",
      );
    }
    const parts: SignedParts = { method, target, timestamp, nonce };
    if (!signatureMatches(this.settings.secret, parts, signature)) {
      return refuse("bad_signature", "the signature does not match the request");
    }
    const skewMs = Math.abs(this.now() - Number(timestamp));
    if (skewMs > this.settings.maxClockSkewMs) {
      return refuse(
        "stale_timestamp",
        `the timestamp is ${skewMs} ms from the solver's clock, more than the ${this.settings.maxClockSkewMs} ms allowed`,
      );
    }
    if (this.seen.has(nonce)) return refuse("replayed_nonce", "this nonce was used before");
    return { ok: true, nonce };
  }

  /**
   * Uses up an admitted request's nonce. It is remembered until a request carrying it would be refused as
   * stale anyway, so the memory holds at most the requests admitted within twice the skew.
   */
  admit(nonce: string): void {
    const now = this.now();
    for (const [old, forgetAt] of this.seen) {
      if (forgetAt > now) break;
      this.seen.delete(old);
    }
    this.seen.set(nonce, now + 2 * this.settings.maxClockSkewMs + NONCE_MARGIN_MS);
  }

  /** Nonces remembered now. */
  get remembered(): number {
    return this.seen.size;
  }
}

/**
 * The signature of a request to the solver's quote endpoint (docs/solver-quote-api.md, Authentication):
 * an HMAC-SHA256, under a secret the solver and its caller share, over the method, the path, the query as
 * sent, a timestamp and a nonce. Both sides build the signed text here, so they cannot drift apart.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADERS = {
  timestamp: "x-solver-timestamp",
  nonce: "x-solver-nonce",
  signature: "x-solver-signature",
} as const;

/** Shorter secrets are refused (config quote.auth.secret): 32 characters of `openssl rand -hex 32` and up. */
export const MIN_QUOTE_SECRET_LENGTH = 32;

/** A nonce: 16 to 64 characters of letters, digits, `-` and `_` (16 random bytes as hex is 32). */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** What a signature covers. */
export interface SignedParts {
  method: string;
  /** The request target as sent: path, then `?` and the query when there is one. */
  target: string;
  /** Unix milliseconds, as the decimal digits sent. */
  timestamp: string;
  nonce: string;
}

/** The signed text: a version tag, then each part on its own line; the query exactly as sent. */
function signedText(parts: SignedParts): string {
  const queryAt = parts.target.indexOf("?");
  const path = queryAt === -1 ? parts.target : parts.target.slice(0, queryAt);
  const query = queryAt === -1 ? "" : parts.target.slice(queryAt + 1);
  return ["solver-quote-v1", parts.method.toUpperCase(), path, query, parts.timestamp, parts.nonce].join(
    "\n",
  );
}

/** The signature as lower-case hex. */
export function quoteSignature(secret: string, parts: SignedParts): string {
  return createHmac("sha256", secret).update(signedText(parts)).digest("hex");
}

/** Whether `signature` (as sent) is the signature of `parts`; compared in constant time. */
export function signatureMatches(secret: string, parts: SignedParts, signature: string): boolean {
  const expected = Buffer.from(quoteSignature(secret, parts), "utf8");
  const given = Buffer.from(signature.toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The headers that sign a GET of `url` now, with a fresh nonce: what a caller adds to its request. */
export function signQuoteRequest(
  secret: string,
  url: URL,
  options: { method?: string; nowMs?: number; nonce?: string } = {},
): Record<string, string> {
  const parts: SignedParts = {
    method: options.method ?? "GET",
    target: `${url.pathname}${url.search}`,
    timestamp: String(options.nowMs ?? Date.now()),
    nonce: options.nonce ?? randomBytes(16).toString("hex"),
  };
  return {
    [SIGNATURE_HEADERS.timestamp]: parts.timestamp,
    [SIGNATURE_HEADERS.nonce]: parts.nonce,
    [SIGNATURE_HEADERS.signature]: quoteSignature(secret, parts),
  };
}

/**
 * What a quote request must pass before the solver prices it: the signature, when the endpoint requires
 * one (config quote.auth); room among the quotes being priced at once (quote.limits.maxConcurrent); and a
 * token from its client's bucket (quote.limits.perClient*). A request that fails any is answered at once,
 * 401 or 429 with Retry-After, and never queued: a flood costs the solver the parsing of its requests.
 */
import type { IncomingMessage } from "node:http";
import { QuoteAuthenticator, type QuoteAuthSettings } from "./quote-auth.js";
import { ClientRateLimiter } from "./quote-rate-limit.js";

export interface QuoteLimitSettings {
  /** Quotes being priced at once; one more is turned away. */
  maxConcurrent: number;
  /** Tokens a client's bucket earns a second, and holds at most. */
  perClientPerSecond: number;
  perClientBurst: number;
}

/** What config quote.limits defaults to: room for a service's bursts of 1,000 quotes and a steady 200 a second. */
export const DEFAULT_QUOTE_LIMITS: QuoteLimitSettings = {
  maxConcurrent: 256,
  perClientPerSecond: 200,
  perClientBurst: 1000,
};

export interface QuoteGuardOptions {
  /** Signed requests only; absent or with an empty secret, anyone may ask. */
  auth?: QuoteAuthSettings;
  /** Absent: no bound (tests and benchmarks of the pricing alone). */
  limits?: QuoteLimitSettings;
  /** Wall clock, unix ms: request timestamps are compared with it. */
  now?: () => number;
  /** Monotonic clock, ms, of the rate limit. */
  monotonicNow?: () => number;
}

export type Turned = {
  ok: false;
  status: 401 | 429;
  outcome: "unauthorized" | "rate_limited" | "busy";
  reason: string;
  message: string;
  headers: Record<string, string>;
};

export type Admission = { ok: true; release(): void } | Turned;

/** The scheme named in a 401's `www-authenticate` (docs/solver-quote-api.md, Authentication). */
export const AUTH_SCHEME = "Solver-HMAC-SHA256";

/** Every holder of the secret is one client: the rate limit cannot tell them apart. */
const SIGNED_CLIENT = "signed";

function retryAfter(ms: number): Record<string, string> {
  return { "retry-after": String(Math.max(1, Math.ceil(ms / 1000))) };
}

export class QuoteGuard {
  private readonly authenticator: QuoteAuthenticator | null;
  private readonly rate: ClientRateLimiter | null;
  private readonly maxConcurrent: number;
  private pricing = 0;

  constructor(options: QuoteGuardOptions) {
    const { auth, limits } = options;
    this.authenticator =
      auth === undefined || auth.secret === "" ? null : new QuoteAuthenticator(auth, options.now);
    this.rate =
      limits === undefined
        ? null
        : new ClientRateLimiter(
            { perSecond: limits.perClientPerSecond, burst: limits.perClientBurst },
            options.monotonicNow,
          );
    this.maxConcurrent = limits?.maxConcurrent ?? Infinity;
  }

  /** Quotes being priced now. */
  get inProgress(): number {
    return this.pricing;
  }

  /** Whether the request may be priced now; when it may, `release` must follow its answer. */
  admit(request: IncomingMessage): Admission {
    let nonce: string | null = null;
    if (this.authenticator !== null) {
      const verdict = this.authenticator.verify(request.method ?? "", request.url ?? "", request.headers);
      if (!verdict.ok) {
        return {
          ok: false,
          status: 401,
          outcome: "unauthorized",
          reason: verdict.reason,
          message: verdict.message,
          headers: { "www-authenticate": AUTH_SCHEME },
        };
      }
      nonce = verdict.nonce;
    }
    if (this.pricing >= this.maxConcurrent) {
      return {
        ok: false,
        status: 429,
        outcome: "busy",
        reason: "busy",
        message: "the solver is pricing as many quotes as it takes at once; ask again after retry-after",
        headers: retryAfter(0),
      };
    }
    const client = nonce !== null ? SIGNED_CLIENT : (request.socket.remoteAddress ?? "unknown");
    const rate = this.rate?.take(client) ?? { ok: true };
    if (!rate.ok) {
      return {
        ok: false,
        status: 429,
        outcome: "rate_limited",
        reason: "rate_limited",
        message: "this client asks faster than its share of quotes; ask again after retry-after",
        headers: retryAfter(rate.retryAfterMs),
      };
    }
    // Used up only now: a request turned away above may be sent again as it was.
    if (nonce !== null) this.authenticator?.admit(nonce);
    this.pricing += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.pricing -= 1;
      },
    };
  }
}

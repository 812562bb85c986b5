/**
 * What a quote request must pass before the solver prices it: the signature, when the endpoint requires
 * one (config quote.auth). A request that fails is answered at once, never queued.
 */
import type { IncomingMessage } from "node:http";
import { QuoteAuthenticator, type QuoteAuthSettings } from "./quote-auth.js";

export interface QuoteGuardOptions {
  /** Signed requests only; absent or with an empty secret, anyone may ask. */
  auth?: QuoteAuthSettings;
  /** Wall clock, unix ms: request timestamps are compared with it. */
  now?: () => number;
}

export type Turned = {
  ok: false;
  status: 401;
  outcome: "unauthorized";
  reason: string;
  message: string;
  headers: Record<string, string>;
};

export type Admission = { ok: true; release(): void } | Turned;

/** The scheme named in a 401's `www-authenticate` (docs/solver-quote-api.md, Authentication). */
export const AUTH_SCHEME = "Solver-HMAC-SHA256";

export class QuoteGuard {
  private readonly authenticator: QuoteAuthenticator | null;

  constructor(options: QuoteGuardOptions) {
    const auth = options.auth;
    this.authenticator =
      auth === undefined || auth.secret === "" ? null : new QuoteAuthenticator(auth, options.now);
  }

  /** Whether the request may be priced now; when it may, `release` must follow its answer. */
  admit(request: IncomingMessage): Admission {
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
      this.authenticator.admit(verdict.nonce);
    }
    return { ok: true, release: () => undefined };
  }
}

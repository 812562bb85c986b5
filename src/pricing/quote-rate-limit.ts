/**
 * A token bucket per client of the quote endpoint (config quote.limits): a client may ask `burst` quotes
 * at once and `perSecond` a second after that. A request beyond its bucket is turned away at once with the
 * time until a token is back; nothing waits.
 */
export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

export type RateVerdict = { ok: true } | { ok: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  atMs: number;
}

/**
 * Clients tracked at once. Past it, buckets that have refilled are dropped (a full bucket is the same as
 * none); a new client finding every slot taken by clients still drawing on theirs is turned away.
 */
export const MAX_TRACKED_CLIENTS = 10_000;

export class ClientRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly settings: RateLimitSettings,
    /** A monotonic clock, ms. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token from the client's bucket, or says how long until one is back. */
  take(client: string): RateVerdict {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined) {
      if (this.buckets.size >= MAX_TRACKED_CLIENTS) this.dropRefilled(now);
      if (this.buckets.size >= MAX_TRACKED_CLIENTS) return { ok: false, retryAfterMs: this.msPerToken() };
      bucket = { tokens: this.settings.burst, atMs: now };
      this.buckets.set(client, bucket);
    }
    bucket.tokens = this.refilled(bucket, now);
    bucket.atMs = now;
    if (bucket.tokens < 1) return { ok: false, retryAfterMs: (1 - bucket.tokens) * this.msPerToken() };
    bucket.tokens -= 1;
    return { ok: true };
  }

  /** Clients tracked now. */
  get tracked(): number {
    return this.buckets.size;
  }

  private msPerToken(): number {
    return 1000 / this.settings.perSecond;
  }

  private refilled(bucket: Bucket, now: number): number {
    const earned = ((now - bucket.atMs) * this.settings.perSecond) / 1000;
    return Math.min(this.settings.burst, bucket.tokens + earned);
  }

  private dropRefilled(now: number): void {
    for (const [client, bucket] of this.buckets) {
      if (this.refilled(bucket, now) >= this.settings.burst) this.buckets.delete(client);
    }
  }
}

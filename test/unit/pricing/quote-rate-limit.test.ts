import { describe, expect, it } from "vitest";
import { ClientRateLimiter, MAX_TRACKED_CLIENTS } from "../../../src/pricing/quote-rate-limit.js";

describe("ClientRateLimiter", () => {
  it("says how long until the next token, to the millisecond", () => {
    let now = 0;
    const limiter = new ClientRateLimiter({ perSecond: 4, burst: 2 }, () => now);
    expect(limiter.take("a")).toEqual({ ok: true });
    expect(limiter.take("a")).toEqual({ ok: true });
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterMs: 250 });
    now += 100;
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterMs: 150 });
    now += 150;
    expect(limiter.take("a")).toEqual({ ok: true });
    // A long pause refills the bucket to its burst, no further.
    now += 60_000;
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")].map((v) => v.ok)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("tracks a bounded number of clients, dropping those whose bucket has refilled", () => {
    let now = 0;
    const limiter = new ClientRateLimiter({ perSecond: 10, burst: 5 }, () => now);
    for (let i = 0; i < MAX_TRACKED_CLIENTS; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.tracked).toBe(MAX_TRACKED_CLIENTS);
    // Every slot is held by a client still drawing on its bucket: a new one is turned away.
    expect(limiter.take("192.0.2.1")).toEqual({ ok: false, retryAfterMs: 100 });
    now += 100;
    expect(limiter.take("192.0.2.1")).toEqual({ ok: true });
    expect(limiter.tracked).toBe(1);
  });
});

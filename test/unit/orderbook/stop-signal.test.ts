import { describe, expect, it } from "vitest";
import { OrderbookClient } from "../../../src/orderbook/client.js";

/** A service that takes every request and answers none, until the request's own signal ends it. */
function silentService() {
  let requests = 0;
  const fetchImpl: typeof fetch = (_input, init) => {
    requests += 1;
    return new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason as Error));
    });
  };
  return { fetchImpl, requests: () => requests };
}

describe("OrderbookClient stop signal", () => {
  it("ends a read in flight at once when the solver stops, and retries nothing", async () => {
    const service = silentService();
    const stop = new AbortController();
    const client = new OrderbookClient({
      baseUrl: "http://service.test",
      appId: "a",
      fetchImpl: service.fetchImpl,
      timeoutMs: 60_000,
      maxAttempts: 4,
      backoffMs: 1,
      stopSignal: stop.signal,
    });
    const reading = client.getOrder("ab".repeat(32));
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort(new Error("the solver is stopping"));
    await expect(reading).rejects.toThrow(/the solver is stopping/);
    expect(service.requests()).toBe(1);
    // Nothing new goes out once stopped.
    await expect(client.chains()).rejects.toThrow(/the solver is stopping/);
    expect(service.requests()).toBe(1);
  });

  it("still times a read out on its own without a stop", async () => {
    const service = silentService();
    const client = new OrderbookClient({
      baseUrl: "http://service.test",
      appId: "a",
      fetchImpl: service.fetchImpl,
      timeoutMs: 20,
      maxAttempts: 2,
      backoffMs: 1,
    });
    await expect(client.chains()).rejects.toThrow();
    expect(service.requests()).toBe(2);
  });
});

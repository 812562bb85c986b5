import { describe, expect, it } from "vitest";
import { EndpointFault, RpcUnavailableError } from "../../../../src/chains/rpc/errors.js";
import { FakeClock, FakeEndpoint, fakePool } from "./fake-endpoints.js";

function setup(count = 2) {
  const clock = new FakeClock();
  const endpoints = Array.from(
    { length: count },
    (_, i) => new FakeEndpoint(`https://rpc${i}.example/`, clock),
  );
  return { clock, endpoints };
}

const read = (e: FakeEndpoint) => e.call();

describe("EndpointPool reads", () => {
  it("fails over to the next endpoint within one read", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    b.latencyMs = 50; // a is preferred while healthy
    const pool = fakePool(endpoints, clock);
    expect(await pool.read("get", read)).toBe(`${a.label}:read`);
    a.script = [{ kind: "fault" }];
    expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    expect(a.calls).toBe(2);
  });

  it("prefers the endpoint with fewer recent faults, then the faster one", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    a.latencyMs = 5;
    b.latencyMs = 80;
    a.otherwise = { kind: "fault" };
    const pool = fakePool(endpoints, clock);
    for (let i = 0; i < 20; i++) expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    // a's faults put it in cool-down and make it expensive: it is asked far less than once per read.
    expect(a.calls).toBeLessThan(8);
    a.otherwise = { kind: "answer" };
    const before = { a: a.calls, b: b.calls };
    clock.t += 60_000; // cool-downs over; a's recent faults still weigh
    for (let i = 0; i < 5; i++) await pool.read("get", read);
    expect(b.calls - before.b).toBe(5);
    expect(a.calls - before.a).toBe(0);
  });

  it("stays on the same endpoint while it is about as good as the best", async () => {
    const { clock, endpoints } = setup(3);
    endpoints.forEach((e, i) => (e.latencyMs = 10 + i));
    const pool = fakePool(endpoints, clock);
    const answers = new Set<string>();
    for (let i = 0; i < 10; i++) answers.add(await pool.read("get", read));
    expect(answers.size).toBe(1);
  });

  it("honours Retry-After: a rate-limited endpoint is not asked until its cool-down ends", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    b.latencyMs = 200;
    const pool = fakePool(endpoints, clock, { headRefreshMs: 1_000_000 });
    a.script = [{ kind: "rate-limited", retryAfterMs: 30_000 }];
    expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    const rateLimitedAt = clock.t;
    for (let i = 0; i < 20; i++) {
      expect(await pool.read("get", read)).toBe(`${b.label}:read`);
      clock.t += 1_000;
    }
    expect(clock.t).toBeLessThan(rateLimitedAt + 30_000);
    expect(a.calls).toBe(1);
    expect(pool.status()[0]).toMatchObject({ current: false, coolReason: "rate-limited" });
    clock.t = rateLimitedAt + 30_001;
    expect(await pool.read("get", read)).toBe(`${a.label}:read`);
  });

  it("waits out a short cool-down when it is the only way to answer", async () => {
    const { clock, endpoints } = setup(1);
    const [a] = endpoints as [FakeEndpoint];
    a.script = [{ kind: "rate-limited", retryAfterMs: 2_000 }];
    const pool = fakePool(endpoints, clock);
    const start = clock.t;
    expect(await pool.read("get", read)).toBe(`${a.label}:read`);
    expect(clock.t - start).toBeGreaterThanOrEqual(2_000);
    expect(a.calls).toBe(2);
  });

  it("gives up with every fault named when no endpoint answers", async () => {
    const { clock, endpoints } = setup();
    for (const e of endpoints) e.otherwise = { kind: "fault" };
    const pool = fakePool(endpoints, clock, { maxAttempts: 4 });
    const error = await pool.read("eth_call", read).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcUnavailableError);
    const unavailable = error as RpcUnavailableError;
    expect(unavailable.faults).toHaveLength(4);
    expect(unavailable.message).toMatch(/^eth_call on testchain failed after 4 attempt\(s\): https:\/\/rpc0/);
    expect(unavailable.message).toContain("https://rpc1.example/ unavailable");
  });

  it("passes the node's own answers through without asking another endpoint", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    b.latencyMs = 50;
    a.script = [{ kind: "reject", message: "execution reverted" }];
    const pool = fakePool(endpoints, clock);
    await expect(pool.read("eth_call", read)).rejects.toThrow("execution reverted");
    expect(b.calls).toBe(0);
    expect(pool.status()[0]?.errorRate).toBe(0);
  });
});

describe("EndpointPool heads", () => {
  it("keeps current reads off an endpoint whose head lags by more than the limit", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    a.latencyMs = 1; // fast but stuck
    a.head = 90;
    b.latencyMs = 100;
    b.head = 100;
    const pool = fakePool(endpoints, clock);
    for (let i = 0; i < 5; i++) expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    expect(a.calls).toBe(0);
    // A read that need not be current may use it.
    expect(await pool.read("fees", read, { current: false })).toBe(`${a.label}:read`);
    expect(pool.status().map((s) => [s.current, s.lagBlocks])).toEqual([
      [false, 10],
      [true, 0],
    ]);
  });

  it("tolerates a lag within the limit and notices when the lagging endpoint catches up", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    a.latencyMs = 1;
    a.head = 90;
    b.latencyMs = 200;
    const pool = fakePool(endpoints, clock);
    expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    a.head = 98; // within maxHeadLagBlocks = 2
    clock.t += 1_001;
    expect(await pool.read("get", read)).toBe(`${a.label}:read`);
  });

  it("reads heads at most once per refresh interval, and learns heads from answers", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    const pool = fakePool(endpoints, clock, { headRefreshMs: 10_000 });
    await Promise.all([pool.read("get", read), pool.read("get", read), pool.read("get", read)]);
    expect([a.headCalls, b.headCalls]).toEqual([1, 1]);
    for (let i = 0; i < 5; i++) await pool.read("get", read);
    expect([a.headCalls, b.headCalls]).toEqual([1, 1]);
    pool.noteHead(b, 150);
    expect(pool.bestHead()).toBe(150);
    expect(pool.status()[0]).toMatchObject({ current: false, lagBlocks: 50 });
  });

  it("reads heads again after waiting out a cool-down, and never judges by old heads", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    a.latencyMs = 1;
    a.head = 90;
    const pool = fakePool(endpoints, clock);
    expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    b.script = [{ kind: "rate-limited", retryAfterMs: 4_000 }];
    const headReads = b.headCalls;
    // b is the only current endpoint: the read waits for it, reads the heads again, and asks it.
    expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    expect(b.headCalls).toBeGreaterThan(headReads);
    expect(a.calls).toBe(0);
    // b stops answering: the head it last reported still shows a is behind, so a is not believed.
    b.otherwise = { kind: "fault" };
    clock.t += 5_000;
    const error = await pool.read("get", read).catch((e: unknown) => e);
    expect(a.calls).toBe(0);
    expect((error as Error).message).toContain("https://rpc0.example/ head 90 is 10 blocks behind 100");
  });

  it("does not read heads when there is a single endpoint", async () => {
    const { clock, endpoints } = setup(1);
    const pool = fakePool(endpoints, clock);
    await pool.read("get", read);
    expect(endpoints[0]?.headCalls).toBe(0);
  });

  it("refuses a current read rather than ask an endpoint that is behind", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    a.head = 50;
    b.otherwise = { kind: "fault" };
    const pool = fakePool(endpoints, clock, { maxAttempts: 3 });
    const error = await pool.read("getblockcount", read).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcUnavailableError);
    expect((error as Error).message).toContain("https://rpc0.example/ head 50 is 50 blocks behind 100");
    expect(a.calls).toBe(0);
  });
});

describe("EndpointPool stale heads", () => {
  const MAX_AGE = 60_000;

  it("takes the tip from an endpoint whose head block is recent, and prefers it for reads", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    a.latencyMs = 1; // fast, but stuck ten minutes ago one block below b: within the lag allowed
    a.head = 100;
    a.headTimeMs = clock.t - 600_000;
    b.latencyMs = 50;
    b.head = 101;
    b.headTimeMs = clock.t - 5_000;
    const pool = fakePool(endpoints, clock, { maxHeadAgeMs: MAX_AGE });
    expect(await pool.freshHead()).toEqual({ height: 101, timeMs: b.headTimeMs });
    for (let i = 0; i < 5; i++) expect(await pool.read("get", read)).toBe(`${b.label}:read`);
    expect(a.calls).toBe(0);
    expect(pool.status().map((s) => [s.stale, s.current])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it("fails the tip with every endpoint's head age when all are stale, asking each once", async () => {
    const { clock, endpoints } = setup();
    const stuckAt = clock.t - 600_000;
    for (const e of endpoints) e.headTimeMs = stuckAt;
    const pool = fakePool(endpoints, clock, { maxHeadAgeMs: MAX_AGE });
    const error = await pool.freshHead("eth_getBlockByNumber").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcUnavailableError);
    const message = (error as Error).message;
    for (const e of endpoints) {
      expect(message).toContain(
        `${e.label} answered with a stale head: head 100 is from ${new Date(stuckAt).toISOString()}`,
      );
    }
    expect(message).toMatch(/600 s ago; at most 60 s is taken as current/);
    expect(endpoints.map((e) => e.headCalls)).toEqual([2, 2]); // one refresh, one tip read
    // Reads that do not count from the tip still answer.
    expect(await pool.read("get", read)).toMatch(/:read$/);
  });

  it("fails the tip of a single endpoint while its head is stale, and takes it once it moves on", async () => {
    const { clock, endpoints } = setup(1);
    const [a] = endpoints as [FakeEndpoint];
    a.headTimeMs = clock.t - 120_000;
    const pool = fakePool(endpoints, clock, { maxHeadAgeMs: MAX_AGE });
    await expect(pool.freshHead()).rejects.toThrow(/120 s ago/);
    a.head = 130;
    a.headTimeMs = clock.t - 1_000;
    expect((await pool.freshHead()).height).toBe(130);
  });

  it("does not judge a head whose time is unknown, nor any head without an allowance", async () => {
    const { clock, endpoints } = setup(1);
    const [a] = endpoints as [FakeEndpoint];
    expect((await fakePool(endpoints, clock, { maxHeadAgeMs: MAX_AGE }).freshHead()).height).toBe(100);
    a.headTimeMs = clock.t - 600_000;
    expect((await fakePool(endpoints, clock).freshHead()).height).toBe(100);
  });
});

describe("EndpointPool sticky scopes", () => {
  it("sends every read inside a scope to one endpoint, even when another becomes cheaper", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    const pool = fakePool(endpoints, clock);
    const seen = await pool.sticky("range", async () => {
      const first = await pool.read("get", read);
      const pinned = first.startsWith(a.label) ? a : b;
      pinned.latencyMs = 500;
      const rest = await Promise.all([1, 2, 3, 4].map(() => pool.read("get", read)));
      return [first, ...rest];
    });
    expect(new Set(seen).size).toBe(1);
  });

  it("retries the pinned endpoint on a passing fault, and moves the whole scope when it stays down", async () => {
    const { clock, endpoints } = setup();
    const [a, b] = endpoints as [FakeEndpoint, FakeEndpoint];
    b.latencyMs = 50;
    const pool = fakePool(endpoints, clock, { maxAttempts: 3 });
    a.script = [{ kind: "fault" }];
    let runs = 0;
    const once = await pool.sticky("range", async () => {
      runs++;
      return [await pool.read("get", read), await pool.read("get", read)];
    });
    expect(once).toEqual([`${a.label}:read`, `${a.label}:read`]);
    expect(runs).toBe(1);
    runs = 0;
    const moved = await pool.sticky("range", async () => {
      runs++;
      const first = await pool.read("get", read);
      // The pinned endpoint goes down for good in the middle of the scope.
      if (runs === 1)
        for (const e of endpoints) if (first.startsWith(e.label)) e.otherwise = { kind: "fault" };
      return [first, await pool.read("get", read)];
    });
    expect(runs).toBe(2);
    expect(moved[0]).toBe(moved[1]);
  });

  it("keeps the node's answers inside the scope as they are", async () => {
    const { clock, endpoints } = setup();
    const pool = fakePool(endpoints, clock);
    for (const e of endpoints) e.script = [{ kind: "reject", message: "Block not found" }];
    await expect(pool.sticky("range", () => pool.read("get", read))).rejects.toThrow("Block not found");
  });
});

describe("EndpointPool broadcasts", () => {
  const send = (e: FakeEndpoint) => e.call("tx1");
  const known = (error: unknown) => error instanceof Error && /already known/.test(error.message);

  it("sends through every endpoint that is not cooling down, including one that is behind", async () => {
    const { clock, endpoints } = setup(3);
    const [a, b, c] = endpoints as [FakeEndpoint, FakeEndpoint, FakeEndpoint];
    b.head = 10;
    c.script = [{ kind: "rate-limited", retryAfterMs: 60_000 }];
    const pool = fakePool(endpoints, clock);
    await expect(pool.attempt(c, (e) => e.call())).rejects.toBeInstanceOf(EndpointFault);
    expect(await pool.broadcast("send", send)).toMatch(/:tx1$/);
    expect(a.accepted).toEqual(["tx1"]);
    expect(b.accepted).toEqual(["tx1"]);
    expect(c.accepted).toEqual([]);
  });

  it("succeeds when one endpoint accepts, whatever the others say", async () => {
    const { clock, endpoints } = setup(3);
    const [a, b, c] = endpoints as [FakeEndpoint, FakeEndpoint, FakeEndpoint];
    a.otherwise = { kind: "fault" };
    b.script = [{ kind: "reject", message: "nonce too low" }];
    const pool = fakePool(endpoints, clock);
    expect(await pool.broadcast("send", send, { preferAnswer: known })).toBe(`${c.label}:tx1`);
    expect(a.calls).toBe(4);
  });

  it("retries an endpoint's passing faults so that a dropping endpoint cannot lose the transaction", async () => {
    const { clock, endpoints } = setup();
    const [dropper, honest] = endpoints as [FakeEndpoint, FakeEndpoint];
    honest.script = [{ kind: "fault" }, { kind: "fault" }];
    const pool = fakePool(endpoints, clock);
    await pool.broadcast("send", send);
    expect(dropper.accepted).toEqual(["tx1"]);
    expect(honest.accepted).toEqual(["tx1"]);
    expect(honest.calls).toBe(3);
  });

  it("reports the preferred answer, then any answer, then the faults, when nobody accepts", async () => {
    const { clock, endpoints } = setup(3);
    const [a, b, c] = endpoints as [FakeEndpoint, FakeEndpoint, FakeEndpoint];
    a.otherwise = { kind: "fault" };
    b.script = [{ kind: "reject", message: "insufficient funds" }];
    c.script = [{ kind: "reject", message: "already known" }];
    const pool = fakePool(endpoints, clock);
    await expect(pool.broadcast("send", send, { preferAnswer: known })).rejects.toThrow("already known");
    b.script = [{ kind: "reject", message: "insufficient funds" }];
    c.otherwise = { kind: "fault" };
    await expect(pool.broadcast("send", send, { preferAnswer: known })).rejects.toThrow("insufficient funds");
    b.otherwise = { kind: "fault" };
    clock.t += 600_000;
    await expect(pool.broadcast("send", send)).rejects.toBeInstanceOf(RpcUnavailableError);
  });

  it("waits a grace period for the other endpoints once one accepted, then returns", async () => {
    const { clock, endpoints } = setup();
    const [fast, slow] = endpoints as [FakeEndpoint, FakeEndpoint];
    let release = () => {};
    slow.gate = new Promise<void>((resolve) => (release = resolve));
    const pool = fakePool(endpoints, clock, { broadcastGraceMs: 100 });
    setTimeout(release, 20);
    await pool.broadcast("send", send);
    expect(slow.accepted).toEqual(["tx1"]);
    expect(fast.accepted).toEqual(["tx1"]);
    // A slower endpoint than the grace allows: the broadcast returns, its send carries on.
    slow.gate = new Promise<void>((resolve) => (release = resolve));
    await pool.broadcast("send", (e) => e.call("tx2"));
    expect(slow.accepted).toEqual(["tx1"]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(slow.accepted).toEqual(["tx1", "tx2"]);
  });
});

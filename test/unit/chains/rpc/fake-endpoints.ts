/**
 * Endpoints of a pool under test: each answers from a script of behaviours, reports a head height, and
 * counts its calls. Time is a fake clock that endpoints advance by their latency and the pool's sleeps
 * advance at once, so tests are instant and deterministic.
 */
import { EndpointFault } from "../../../../src/chains/rpc/errors.js";
import { EndpointPool, type EndpointPoolOptions } from "../../../../src/chains/rpc/endpoint-pool.js";
import type { HeadReading } from "../../../../src/chains/rpc/head-age.js";

export type Behaviour =
  | { kind: "answer"; value?: string }
  | { kind: "fault" }
  | { kind: "rate-limited"; retryAfterMs: number | null }
  | { kind: "reject"; message: string };

/**
 * Virtual time: `sleep` registers a timer, and once the event loop has nothing else to do the earliest
 * timer fires with the clock set to its due time. Concurrent sleeps therefore end in due order, and a
 * measured duration is exactly the sleeps on its path.
 */
export class FakeClock {
  t = 1_000_000;
  readonly #timers: { due: number; resolve: () => void }[] = [];
  #scheduled = false;

  now = (): number => this.t;

  sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      this.#timers.push({ due: this.t + ms, resolve });
      this.#schedule();
    });

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#fire());
  }

  #fire(): void {
    this.#scheduled = false;
    this.#timers.sort((x, y) => x.due - y.due);
    const next = this.#timers.shift();
    if (next === undefined) return;
    this.t = Math.max(this.t, next.due);
    next.resolve();
    if (this.#timers.length > 0) this.#schedule();
  }
}

export class FakeEndpoint {
  calls = 0;
  headCalls = 0;
  /** Behaviours for the next calls, in order; `otherwise` once they run out. */
  script: Behaviour[] = [];
  otherwise: Behaviour = { kind: "answer" };
  latencyMs = 10;
  /** When set, calls wait for it before answering (a slow endpoint, in real time). */
  gate: Promise<void> | null = null;
  head = 100;
  /** The time the head block states, ms; null: the chain does not tell. */
  headTimeMs: number | null = null;
  /** Values this endpoint accepted in broadcasts. */
  readonly accepted: string[] = [];

  constructor(
    readonly label: string,
    private readonly clock: FakeClock,
  ) {}

  async call(payload = "read"): Promise<string> {
    this.calls++;
    await this.clock.sleep(this.latencyMs);
    await (this.gate ?? Promise.resolve());
    const b = this.script.shift() ?? this.otherwise;
    if (b.kind === "fault") throw new EndpointFault(this.label, "unavailable", "HTTP 502 from the fake");
    if (b.kind === "rate-limited")
      throw new EndpointFault(this.label, "rate-limited", "slow down", {
        status: 429,
        retryAfterMs: b.retryAfterMs,
      });
    if (b.kind === "reject") throw new Error(`${this.label} says: ${b.message}`);
    if (payload !== "read") this.accepted.push(payload);
    return b.value ?? `${this.label}:${payload}`;
  }

  async readHead(): Promise<HeadReading> {
    this.headCalls++;
    await this.clock.sleep(this.latencyMs);
    return { height: this.head, timeMs: this.headTimeMs };
  }
}

export function fakePool(
  endpoints: FakeEndpoint[],
  clock: FakeClock,
  options: Partial<EndpointPoolOptions<FakeEndpoint>> = {},
): EndpointPool<FakeEndpoint> {
  return new EndpointPool<FakeEndpoint>({
    chain: "testchain",
    endpoints,
    readHead: (e) => e.readHead(),
    maxHeadLagBlocks: 2,
    headRefreshMs: 1_000,
    timeoutMs: 5_000,
    now: clock.now,
    sleep: clock.sleep,
    ...options,
  });
}
